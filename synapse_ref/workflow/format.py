"""Human-readable sizes for hook messages, with the original's decimal units (``6.5MB``, ``800KB``)."""

from __future__ import annotations

import math


def format_size(size: int) -> str:
    """Bytes as ``B`` / ``KB`` (whole, half rounds up) / ``MB`` (one decimal), decimal bases throughout."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f}MB"
    if size >= 1_000:
        return f"{math.floor(size / 1_000 + 0.5)}KB"
    return f"{size}B"
