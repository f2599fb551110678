"""``compact(turns, maxChars)`` drops every white-space character at the start of the kept tail: the port
removes the separator left in front of the first block with ``trimStart()`` ("no leading blank"), where
the rule removes only the newlines of that separator.  A tail whose first kept line is indented (a tool
result listing a tree, a YAML or Python block in a user message) loses the indentation of that line,
and a tail starting inside a line of spaces loses them.

Pattern: what "blank" means (newlines only vs any white space); every example tail starts with ``[`` or
a letter after its line boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "white space handled by the wrong rule"


class Reader(Delegate):
    def compact(self, turns: Sequence[Any], max_chars: int = 0) -> str:
        text = str(self._inner.compact(turns, 0))
        if max_chars <= 0 or len(text) <= max_chars:
            return text
        tail = text[-max_chars:]
        if text[-max_chars - 1] != "\n":
            tail = tail[tail.find("\n", 0, len(tail) - 1) + 1 :]
        return tail.lstrip()


class Mutant(ReferenceImplementation):
    name = "semantic-sn_reader_tail_trim_start"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
