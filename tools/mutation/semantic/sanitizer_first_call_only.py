"""The sanitizer checks only the first tool call of a round for a result (and keeps whatever tool
messages follow): written against models that call one tool per turn.

Pattern: one event per round; a round with several calls, one of them unanswered, is the only case
that tells.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer, object_arguments

AREAS = ("agent",)
PATTERN = "one event per round"
BASELINE = "_baseline_sanitizer"


class FirstCall(Sanitizer):
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        if not all(object_arguments(c) for c in calls):
            return None
        if not calls:
            return []
        ids = [r.get("toolCallId") for r in results]
        return results if str(calls[0].get("id")) in ids else None


class Mutant(ReferenceImplementation):
    name = "semantic-sanitizer_first_call_only"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return FirstCall()(messages)


implementation = Mutant
