"""Blank tool-call arguments are read as ``{}``: the port parses ``JSON.parse(args.trim() || "{}")``, as
providers that stream a call without parameters send an empty string, so a resumed round whose call has
``""`` (or only spaces) as arguments is kept and replayed, where the original drops it as malformed.

Pattern: a default applied to an empty value (``x || default``); every malformed-arguments example is
non-empty text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Sanitized, Sanitizer, object_arguments

AREAS = ("agent", "context")
PATTERN = "default applied to an empty value"
BASELINE = "_baseline_sanitizer"


def defaulted(call: Any) -> Any:
    arguments = call.get("arguments") if isinstance(call, dict) else None
    if isinstance(arguments, str) and not arguments.strip():
        return {**call, "arguments": "{}"}
    return call


class BlankAsEmpty(Sanitizer):
    def well_formed(self, call: Any) -> bool:
        return object_arguments(defaulted(call))


class Mutant(ReferenceImplementation):
    name = "semantic-sc_sanitizer_empty_args_default"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return BlankAsEmpty()(messages)


implementation = Mutant
