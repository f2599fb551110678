"""A tool result exactly ``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT`` characters long is shortened in ``compact``:
the port tests ``content.length >= limit`` ("at the limit, cut"), where the limit is the longest result
still shown whole (``length <= limit`` keeps it), so a 200-character result loses its end to ``...``.

Pattern: ``>`` vs ``>=`` tested on one side only; results well under and well over the limit agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "boundary on one side only"

ELLIPSIS = "..."


def cut_at_limit(content: str, limit: int) -> str:
    if len(content) < limit:
        return content
    end = content.rfind("\n", 0, max(0, limit - len(ELLIPSIS)))
    if end >= 0:
        return content[:end] + "\n" + ELLIPSIS
    return content[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


class Reader(Delegate):
    def compact(self, turns: Sequence[Any], max_chars: int = 0) -> str:
        from synapse_ref.skills import conversation_reader

        with swapped(conversation_reader, "truncate_tool_result", cut_at_limit):
            return str(self._inner.compact(turns, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-sj_reader_result_limit_inclusive"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
