"""``summarize`` lists ``uniqueTools`` sorted by name (a set's keys sorted for a stable output, as a Go
or Rust port might), where the original keeps the order in which each tool was first called
(``[...new Set(sequence)]``): the summary reads as the story of the session.

Pattern: sort by one key vs another when the data agree, or when only membership is checked.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("reader",)
PATTERN = "order by another key"


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        return replace_record(summary, unique_tools=tuple(sorted(summary.unique_tools)))


class Mutant(ReferenceImplementation):
    name = "semantic-sa_reader_unique_tools_sorted"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
