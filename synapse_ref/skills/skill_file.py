"""Values read from a ``SKILL.md`` the way the original's front-matter parser reads them."""

from __future__ import annotations

from synapse_ref.js_text import trim

QUOTES = ('"', "'")


def strip_wrapping_quotes(value: str) -> str:
    """The value without one pair of quotes that wraps it whole (``"x"`` or ``'x'``), as the original's
    ``stripWrappingQuotes``; a quote that only begins or ends it (``Run "make test"``) is part of the text."""
    trimmed = trim(value)
    for quote in QUOTES:
        if trimmed.startswith(quote) and trimmed.endswith(quote):
            return trim(trimmed[1:-1])
    return trimmed
