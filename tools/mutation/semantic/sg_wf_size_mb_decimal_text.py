"""Megabytes are rounded from the number's shortest decimal text (Java's ``BigDecimal.valueOf(double)``,
C#'s ``(decimal)double``, ``Decimal(str(x))``) and then half up, where the original's ``toFixed(1)``
rounds the double's exact value: 1,150,000 bytes is the double ``1.149999…`` MB, which the original
writes ``1.1MB`` and the port ``1.2MB`` (``1.15`` rounded half up).

Pattern: two rules agree on the examples (at an exact tie, like 1.25 MB, and off any tie both roundings
agree; they part only where the decimal text looks like a tie the double is not).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion, format, on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"

_reference_format_size = format.format_size


def format_size(size: float) -> str:
    if size >= 1_000_000:
        megabytes = Decimal(repr(size / 1_000_000)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        return f"{megabytes}MB"
    if size >= 1_000:
        return f"{math.floor(size / 1_000 + 0.5)}KB"
    return _reference_format_size(size)


@contextlib.contextmanager
def _decimal_text() -> Iterator[None]:
    with (
        swapped(on_stop, "format_size", format_size),
        swapped(compact_suggestion, "format_size", format_size),
    ):
        yield


class Workflow(Delegate):
    def format_size(self, size: int) -> str:
        return format_size(size)

    def should_suggest_compact(self, **options: Any) -> Any:
        with _decimal_text():
            return self._inner.should_suggest_compact(**options)

    def on_stop(self, event: Any) -> Any:
        with _decimal_text():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _decimal_text():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sg_wf_size_mb_decimal_text"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
