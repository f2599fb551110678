"""Human-readable sizes for hook messages, with the original's decimal units (``6.5MB``, ``800KB``)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

_ONE_DECIMAL = Decimal("0.1")


def format_size(size: float) -> str:
    """Bytes as ``B`` / ``KB`` (whole, half rounds up) / ``MB`` (one decimal), decimal bases throughout.

    Megabytes are rounded as JavaScript's ``toFixed(1)`` rounds: the exact value of the double, a tie
    upwards (1,250,000 bytes is ``1.3MB``), where Python's ``format`` would round a tie to even.  A
    threshold below a kilobyte may have a fraction (``0.0000007`` MB is ``0.7B``), written as JavaScript
    writes a number."""
    if size >= 1_000_000:
        megabytes = Decimal(size / 1_000_000).quantize(_ONE_DECIMAL, rounding=ROUND_HALF_UP)
        return f"{megabytes}MB"
    if size >= 1_000:
        return f"{math.floor(size / 1_000 + 0.5)}KB"
    return f"{_js_number(size)}B"


def _js_number(value: float) -> str:
    """``String(value)`` of JavaScript for a number below 1000: no ``.0`` on a whole number, the
    shortest digits that read back, plain digits down to 1e-6 and ``1e-7`` below (Python's ``repr``
    switches to ``5e-05`` earlier and writes the exponent with two digits)."""
    if value == int(value):
        return str(int(value))
    text = repr(float(value))
    if "e" not in text:
        return text
    if abs(value) >= 1e-6:
        return format(Decimal(text), "f")
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}"
