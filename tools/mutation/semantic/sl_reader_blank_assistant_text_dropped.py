"""An assistant turn whose text is only white space gets no ``[Assistant]`` block: the port tests
``turn.content.trim()`` ("skip empty assistant text") where the original's ``compact`` tests
``turn.content`` itself, so a turn of spaces or a lone newline still shows its block.  The tail the
skill enhancer reads then loses the place where the assistant answered with nothing but its tool calls'
lead-in, and a compact text cut to ``maxChars`` starts at a different line.

Pattern: an empty value against a blank one; every example assistant text is empty or has words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, turn_like

AREAS = ("reader",)
PATTERN = "empty taken as blank"


class Reader(Delegate):
    def compact(self, turns: Sequence[Any], max_chars: int = 0) -> str:
        blanked = [
            turn_like(turn, content="")
            if turn.role == "assistant" and turn.content and not turn.content.strip()
            else turn
            for turn in turns
        ]
        return str(self._inner.compact(blanked, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-sl_reader_blank_assistant_text_dropped"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
