"""Human-readable sizes for hook messages, with the original's decimal units (``6.5MB``, ``800KB``)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

_ONE_DECIMAL = Decimal("0.1")


def format_size(size: int) -> str:
    """Bytes as ``B`` / ``KB`` (whole, half rounds up) / ``MB`` (one decimal), decimal bases throughout.

    Megabytes are rounded as JavaScript's ``toFixed(1)`` rounds: the exact value of the double, a tie
    upwards (1,250,000 bytes is ``1.3MB``), where Python's ``format`` would round a tie to even."""
    if size >= 1_000_000:
        megabytes = Decimal(size / 1_000_000).quantize(_ONE_DECIMAL, rounding=ROUND_HALF_UP)
        return f"{megabytes}MB"
    if size >= 1_000:
        return f"{math.floor(size / 1_000 + 0.5)}KB"
    return f"{size}B"
