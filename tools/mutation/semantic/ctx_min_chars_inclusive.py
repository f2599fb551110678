"""A tool result of exactly ``minChars`` characters is offloaded: ``length >= minChars`` where the
original skips ``length <= minChars`` (offloads only what is strictly longer).

Pattern: a boundary tested only at one side cannot tell ``>`` from ``>=``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("context",)
PATTERN = "boundary tested at one side only"


class Mutant(ReferenceImplementation):
    name = "semantic-ctx_min_chars_inclusive"

    def context_manager(self, storage: Any, *, min_chars: int, **options: Any) -> Any:
        return super().context_manager(storage, min_chars=min_chars - 1, **options)


implementation = Mutant
