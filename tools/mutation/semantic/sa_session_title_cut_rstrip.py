"""A title longer than 50 characters is cut to 47 characters, then trailing blanks are dropped before
the ``...`` (``text.slice(0, 47).trimEnd() + "..."``), so a cut that lands just after a space gives a
title shorter than 50 characters.

Pattern: two rules agree on the examples: the long titles of the examples have no space at the cut.
"""

from __future__ import annotations

from tools.mutation.semantic._sa_title import MAX_LENGTH, TitleMutant

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


class Mutant(TitleMutant):
    name = "semantic-sa_session_title_cut_rstrip"

    @staticmethod
    def rule(text: str) -> str | None:
        text = text.strip()
        if not text:
            return None
        return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3].rstrip() + "..."


implementation = Mutant
