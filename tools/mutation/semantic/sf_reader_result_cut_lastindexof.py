"""A multi-line tool result is cut at a newline found with JavaScript's ``lastIndexOf("\\n", limit - 3)``,
whose position argument is inclusive, where the reference searches before ``limit - 3`` (the original
keeps a line only while it and ``"\\n..."`` fit): a newline exactly at ``limit - 3`` is kept, and the
``[Result]`` text is one character over the limit.

Pattern: ``>`` vs ``>=`` (an inclusive vs exclusive bound) tested on one side only.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ToolResultCutter

AREAS = ("reader",)
PATTERN = "boundary tested at one side only"


def truncate(content: str, limit: int) -> str:
    if len(content) <= limit:
        return content
    end = content.rfind("\n", 0, max(0, limit - 3) + 1)
    if end >= 0:
        return content[:end] + "\n..."
    return content[: max(0, limit - 3)] + "..."


class Reader(ToolResultCutter):
    def cut(self, content: str, limit: int) -> str:
        return truncate(content, limit)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_reader_result_cut_lastindexof"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
