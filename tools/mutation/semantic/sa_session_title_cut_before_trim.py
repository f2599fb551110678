"""The title is cut to 50 characters first and trimmed afterwards (the original's cut, with the trim
added at the end of the expression), so leading blanks count towards the 50 characters: a first
message of 50 characters after two leading spaces gets a ``...`` title.

Pattern: two steps applied in the other order; the examples never have blanks and a long text at once.
"""

from __future__ import annotations

from tools.mutation.semantic._sa_title import MAX_LENGTH, TitleMutant

AREAS = ("session",)
PATTERN = "two rules applied in the other order"


class Mutant(TitleMutant):
    name = "semantic-sa_session_title_cut_before_trim"

    @staticmethod
    def rule(text: str) -> str | None:
        cut = text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3] + "..."
        return cut.strip() or None


implementation = Mutant
