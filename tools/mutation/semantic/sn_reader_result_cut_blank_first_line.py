"""A long tool result whose first line is empty is cut by characters instead of at a line: the port
tests the last fitting newline with ``if (end > 0)`` ("some lines fit"), where a newline at index 0
already leaves one whole (empty) line to keep, so the rule gives ``"\\n..."``.  A result that starts with a
blank line (a command printing an empty line first, a heredoc, ``git show`` output) then shows the start
of its second line cut in the middle of a word, and the lines of the result are no longer whole.

Pattern: a boundary on one side (``> 0`` vs ``>= 0``); every example result starts with text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ToolResultCutter

AREAS = ("reader",)
PATTERN = "boundary on one side only"

ELLIPSIS = "..."


def cut(content: str, limit: int) -> str:
    if len(content) <= limit:
        return content
    end = content.rfind("\n", 0, max(0, limit - len(ELLIPSIS)))
    if end > 0:
        return content[:end] + "\n" + ELLIPSIS
    return content[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


class Reader(ToolResultCutter):
    def cut(self, content: str, limit: int) -> str:
        return cut(content, limit)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_reader_result_cut_blank_first_line"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
