"""``summarize`` lists ``uniqueTools`` in the order of each tool's *last* call: the port builds the list by
removing a name it has seen and appending it again (an LRU-style "move to the end", or a Go map of
name to last index sorted by index), where the original keeps the order of the first call
(``[...new Set(sequence)]``), so ``Read, Bash, Read`` gives ``Bash, Read`` instead of ``Read, Bash``.

Pattern: keeping the first vs the last of duplicates; a sequence whose repeated tool is also the last
one called, or whose first-call and last-call orders agree, cannot tell them apart.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("reader",)
PATTERN = "keep the last of duplicates"


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        order: dict[str, None] = {}
        for name in self._inner.extract_tool_sequence(turns):
            order.pop(name, None)
            order[name] = None
        return replace_record(summary, unique_tools=tuple(order))


class Mutant(ReferenceImplementation):
    name = "semantic-sj_reader_unique_tools_last_seen"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
