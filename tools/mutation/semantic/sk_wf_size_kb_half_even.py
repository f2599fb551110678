"""Kilobytes are rounded with Python's ``round()``: the port writes ``f"{round(size / 1000)}KB"`` for
the original's ``Math.round(bytes / 1000)``, and ``round`` sends an exact half to the even neighbour,
so 2,500 bytes read ``2KB`` where the original says ``3KB`` (and 1,500 bytes ``2KB`` under both).  A
threshold of 0.0025 MB, or a transcript of 4,500 bytes, is named one kilobyte too small.

Pattern: rounding of a tie; every example size in kilobytes is either no tie or an odd one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion, on_stop
from synapse_ref.workflow.format import format_size
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "rounding of a tie"


def half_even_size(size: float) -> str:
    if 1_000 <= size < 1_000_000:
        return f"{round(size / 1_000)}KB"
    return format_size(size)


@contextlib.contextmanager
def _half_even() -> Iterator[None]:
    with (
        swapped(compact_suggestion, "format_size", half_even_size),
        swapped(on_stop, "format_size", half_even_size),
    ):
        yield


class Workflow(Delegate):
    def format_size(self, size: int) -> str:
        return half_even_size(size)

    def should_suggest_compact(self, **arguments: Any) -> Any:
        with _half_even():
            return self._inner.should_suggest_compact(**arguments)

    def on_stop(self, event: Any) -> Any:
        with _half_even():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _half_even():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sk_wf_size_kb_half_even"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
