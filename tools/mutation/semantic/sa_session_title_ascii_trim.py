"""The title trims only ASCII blanks (``strip(" \\t\\r\\n")``, a C-style ``isspace`` loop), where the
spec trims whitespace: a first message typed with a Chinese input method that starts or ends with an
ideographic space (U+3000) keeps it in its title.

Pattern: a rule checked only on ASCII: the examples trim ordinary spaces, which both rules remove.
"""

from __future__ import annotations

from tools.mutation.semantic._sa_title import MAX_LENGTH, TitleMutant

AREAS = ("session",)
PATTERN = "rule checked only on ASCII"


class Mutant(TitleMutant):
    name = "semantic-sa_session_title_ascii_trim"

    @staticmethod
    def rule(text: str) -> str | None:
        text = text.strip(" \t\r\n\f\v")
        if not text:
            return None
        return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3] + "..."


implementation = Mutant
