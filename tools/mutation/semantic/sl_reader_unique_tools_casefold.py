"""``uniqueTools`` folds tool names that differ only in case: the port collects them in a set keyed by
``name.toLowerCase()`` ("``Read`` and ``read`` are the same tool"), where the original's ``new
Set(names)`` keeps every distinct spelling.  Transcripts mixing Claude Code's tools (``Read``,
``Bash``) with an MCP server's or the agent's own lower-case ones (``read``, ``bash``) report fewer
tools than were used, and the skill generated from them names only the first spelling.

Pattern: names compared without case; every example spells each tool one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("reader",)
PATTERN = "ids compared case-insensitively"


class Reader(Delegate):
    def summarize(self, turns: Sequence[Any]) -> Any:
        summary = self._inner.summarize(turns)
        first: dict[str, str] = {}
        for name in summary.unique_tools:
            first.setdefault(name.casefold(), name)
        return replace_record(summary, unique_tools=tuple(first.values()))


class Mutant(ReferenceImplementation):
    name = "semantic-sl_reader_unique_tools_casefold"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
