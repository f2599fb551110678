"""``SYNAPSE_OFFLOAD_SCAN_RATIO`` is read with ``Number(value)`` (Python's ``float(value)``), which takes
the whole text or nothing, where the original's ``parseFloat`` reads the number at its start, as the
integer settings read theirs with ``parseInt``: ``"0.7 of the history"`` or ``"0.7abc"`` scan 0.7 of
the history in the original and the default half in the port.

Pattern: ``parseInt("1.5")``/``"10abc"``-style parsing; the examples give a bare ratio, a ratio over 1,
zero and a word, which both parsers read alike.
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "parseInt-style parsing"
BASELINE = "_baseline_orchestrator"
DEFAULT_SCAN_RATIO = 0.5


def number_ratio(value: str | None) -> float:
    if value is None or not value.strip():
        return DEFAULT_SCAN_RATIO
    try:
        ratio = float(value)
    except ValueError:
        return DEFAULT_SCAN_RATIO
    return ratio if math.isfinite(ratio) and 0 < ratio <= 1 else DEFAULT_SCAN_RATIO


class NumberRatio(Orchestrator):
    def __init__(self, implementation: Any, llm: Any, reference: Any, **options: Any) -> None:
        super().__init__(implementation, llm, reference, **options)
        ratio = number_ratio(os.environ.get("SYNAPSE_OFFLOAD_SCAN_RATIO"))
        self.settings = dataclasses.replace(self.settings, offload_scan_ratio=ratio)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_ctx_scan_ratio_number"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return NumberRatio(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
