"""A tool round is kept only when its results follow the order of its calls: the port pairs
``toolCalls[i]`` with the ``i``-th tool message after the assistant (``results[i].toolCallId ===
calls[i].id``), where the original matches each result to any call of the round by id.  A round whose
tools finished out of order (parallel calls written as they completed, a history edited by hand) is
dropped whole before the next model call: the assistant's text and every result of the round are lost
from the history, although the provider accepts results in any order.

Pattern: sorted vs insertion order; every example round lists its results in the calls' order.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer

AREAS = ("agent", "context")
PATTERN = "order of several"
BASELINE = "_baseline_sanitizer"


class CallOrder(Sanitizer):
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        kept = super().answered(calls, results)
        if kept is None:
            return None
        if [r.get("toolCallId") for r in kept] != [c.get("id") for c in calls]:
            return None
        return kept


class Mutant(ReferenceImplementation):
    name = "semantic-sm_sanitizer_results_in_call_order"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return CallOrder()(messages)


implementation = Mutant
