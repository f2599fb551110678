"""Blank transcript lines are told with Python's ``str.strip()`` (Go's ``strings.TrimSpace`` is
close): the port skips a line silently when nothing is left after stripping, where the original keeps
only lines whose ``line.trim()`` is not empty.  The two white-space sets differ: ``trim()`` removes a
byte-order mark (U+FEFF) and keeps U+001C..U+001F and U+0085, ``strip()`` does the opposite.  A line
holding a stray byte-order mark (two transcripts concatenated) then costs a warning naming a line the
original skips silently, and a line of a control character is skipped without the warning the
original logs.

Pattern: white space read by the wrong language; every blank line of the examples is spaces, tabs and
carriage returns, which both sets hold.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import conversation_reader
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "white space of the wrong language"


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        with swapped(conversation_reader, "trim", str.strip):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        with swapped(conversation_reader, "trim", str.strip):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_blank_line_python_strip"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
