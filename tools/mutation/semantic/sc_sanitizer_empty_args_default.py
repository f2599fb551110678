"""Blank tool-call arguments are read as ``{}``: the port parses ``JSON.parse(args.trim() || "{}")``, as
providers that stream a call without parameters send an empty string, so a resumed round whose call has
``""`` (or only spaces) as arguments is kept and replayed, where the original drops it as malformed.

Pattern: a default applied to an empty value (``x || default``); every malformed-arguments example is
non-empty text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer, object_arguments

AREAS = ("agent", "context")
PATTERN = "default applied to an empty value"
BASELINE = "_baseline_sanitizer"


def defaulted(call: Any) -> Any:
    arguments = call.get("arguments") if isinstance(call, dict) else None
    if isinstance(arguments, str) and not arguments.strip():
        return {**call, "arguments": "{}"}
    return call


class BlankAsEmpty(Sanitizer):
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        if not all(object_arguments(defaulted(c)) for c in calls):
            return None
        expected = {str(c.get("id")) for c in calls}
        if len(expected) != len(calls):
            return None
        seen: set[str] = set()
        kept: list[Message] = []
        for result in results:
            if seen == expected:
                break
            call_id = result.get("toolCallId")
            if not isinstance(call_id, str) or call_id in seen:
                return None
            seen.add(call_id)
            kept.append(result)
        return kept if seen == expected else None


class Mutant(ReferenceImplementation):
    name = "semantic-sc_sanitizer_empty_args_default"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return BlankAsEmpty()(messages)


implementation = Mutant
