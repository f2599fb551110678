"""A multi-line tool result is shortened line by line after splitting it with ``/\\r?\\n/``: the port
"handles Windows line endings" when it cuts the result into lines and joins the kept ones with
``"\\n"``, where the original splits on ``"\\n"`` only and keeps each line as it was, so the ``[Result]``
of a command printing CRLF lines loses every ``\\r`` (it no longer starts with the tool's output) and,
two characters shorter per kept line, keeps more lines than the original.

Pattern: CRLF line endings; every multi-line tool result of the examples ends its lines with ``\\n``.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ToolResultCutter

AREAS = ("reader",)
PATTERN = "CRLF line endings"
ELLIPSIS = "..."


def truncate(content: str, limit: int) -> str:
    if len(content) <= limit:
        return content
    if "\n" in content:
        kept: list[str] = []
        used = 0
        for line in re.split(r"\r?\n", content):
            needed = (1 if kept else 0) + len(line)
            if used + needed + len(ELLIPSIS) + 1 > limit:
                break
            kept.append(line)
            used += needed
        if kept:
            return "\n".join(kept) + "\n" + ELLIPSIS
    return content[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


class Reader(ToolResultCutter):
    def cut(self, content: str, limit: int) -> str:
        return truncate(content, limit)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_reader_result_lines_crlf"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
