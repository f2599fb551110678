"""``SYNAPSE_OFFLOAD_SCAN_RATIO`` is read with a pattern for plain decimals: the port matches
``/^\\s*[+-]?\\d+(\\.\\d+)?/`` ("digits, optionally a point and more digits") where the original calls
``parseFloat``, which also reads a ratio written without its leading zero (``.7``) or with an exponent
(``7e-1``, ``25E-2``).  Such a setting falls back to the default half of the history, or (``2.5e-1``,
read as 2.5) is refused as over 1: older tool results the user wanted offloaded stay inline.

Pattern: parseFloat-style parsing; every example ratio is written as ``0.<digits>`` or a whole number.
"""

from __future__ import annotations

import math
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import settings
from tools.mutation.semantic._support import swapped

AREAS = ("context",)
PATTERN = "parseFloat-style parsing"

_PLAIN_DECIMAL = re.compile(r"\s*([+-]?\d+(?:\.\d+)?)")


def plain_decimal_ratio(value: str | None, fallback: float) -> float:
    found = _PLAIN_DECIMAL.match(value or "")
    if not found:
        return fallback
    ratio = float(found.group(1))
    return ratio if math.isfinite(ratio) and 0 < ratio <= 1 else fallback


class Mutant(ReferenceImplementation):
    name = "semantic-sl_ctx_scan_ratio_plain_decimal"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        with swapped(settings, "parse_env_scan_ratio", plain_decimal_ratio):
            return super().context_orchestrator(llm, **options)


implementation = Mutant
