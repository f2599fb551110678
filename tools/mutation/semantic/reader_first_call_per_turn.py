"""``extractToolSequence`` (and the summary's ``toolCalls`` / ``uniqueTools``) takes one tool call per
assistant turn: a port written against transcripts where the model calls one tool at a time.

Pattern: one event per round; a turn with several tool calls (parallel calls) loses all but the first.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("reader",)
PATTERN = "one event per round"


class Reader(Delegate):
    def extract_tool_sequence(self, turns: Any) -> list[str]:
        return [turn.tool_calls[0].name for turn in turns if turn.tool_calls]

    def summarize(self, turns: Any) -> Any:
        sequence = self.extract_tool_sequence(turns)
        return replace_record(
            self._inner.summarize(turns),
            tool_calls=len(sequence),
            unique_tools=tuple(dict.fromkeys(sequence)),
        )


class Mutant(ReferenceImplementation):
    name = "semantic-reader_first_call_per_turn"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
