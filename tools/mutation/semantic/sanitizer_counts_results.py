"""The sanitizer accepts a round when it has as many tool results as calls, without matching their ids:
counting is the obvious completeness check, and it agrees with id matching whenever every result
answers one of the calls.

Pattern: two rules that agree on the examples; only a round whose result answers an unknown (or a
repeated) id tells them apart.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer, object_arguments

AREAS = ("agent",)
PATTERN = "two rules agree on the examples"
BASELINE = "_baseline_sanitizer"


class Counting(Sanitizer):
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        if not all(object_arguments(c) for c in calls):
            return None
        return results[: len(calls)] if len(results) >= len(calls) else None


class Mutant(ReferenceImplementation):
    name = "semantic-sanitizer_counts_results"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return Counting()(messages)


implementation = Mutant
