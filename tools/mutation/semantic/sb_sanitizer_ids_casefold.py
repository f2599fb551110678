"""The sanitizer matches a tool result to its call ignoring case (``id.toLowerCase()`` on both sides),
as if ids were names: a result for ``CALL_1`` is taken as the answer of ``call_1``, so a round the
provider would reject (it matches ids exactly) is kept.

Pattern: ids compared case-insensitively; every example id is lower-case.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer, object_arguments

AREAS = ("agent", "context")
PATTERN = "ids compared case-insensitively"
BASELINE = "_baseline_sanitizer"


class CaseFolding(Sanitizer):
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        if not all(object_arguments(c) for c in calls):
            return None
        expected = {str(c.get("id")).lower() for c in calls}
        if len(expected) != len(calls):
            return None
        seen: set[str] = set()
        kept: list[Message] = []
        for result in results:
            if seen == expected:
                break
            call_id = result.get("toolCallId")
            if not isinstance(call_id, str) or call_id.lower() in seen:
                return None
            seen.add(call_id.lower())
            kept.append(result)
        return kept if seen == expected else None


class Mutant(ReferenceImplementation):
    name = "semantic-sb_sanitizer_ids_casefold"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return CaseFolding()(messages)


implementation = Mutant
