"""``SYNAPSE_OFFLOAD_SCAN_RATIO`` is read by a ``parseFloat`` the port writes with Python's regular
expressions and ``float()``: ``\\d`` matches the digits of every script and ``float()`` reads them, so a
ratio typed with full-width digits (``０.７``) scans 0.7 of the history, where the original's
``parseFloat`` reads NaN and scans the default half.

Pattern: a number read the way Python reads it; every example ratio is ASCII.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import settings
from tools.mutation.semantic._support import python_parse_float, swapped

AREAS = ("context",)
PATTERN = "a number read the way Python reads it"


class Mutant(ReferenceImplementation):
    name = "semantic-ss_ctx_scan_ratio_python_digits"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        with swapped(settings, "parse_float", python_parse_float):
            return super().context_orchestrator(llm, **options)


implementation = Mutant
