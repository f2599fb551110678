"""Values read from a ``SKILL.md`` the way the original's front-matter parser reads them."""

from __future__ import annotations

QUOTES = ('"', "'")


def strip_wrapping_quotes(value: str) -> str:
    """The value without one pair of quotes that wraps it whole (``"x"`` or ``'x'``), as the original's
    ``stripWrappingQuotes``; a quote that only begins or ends it (``Run "make test"``) is part of the text."""
    trimmed = value.strip()
    for quote in QUOTES:
        if trimmed.startswith(quote) and trimmed.endswith(quote):
            return trimmed[1:-1].strip()
    return trimmed
