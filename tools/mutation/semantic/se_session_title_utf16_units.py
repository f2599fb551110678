"""The title's 50-character limit is measured in UTF-16 code units, as JavaScript's ``text.length`` and
``slice`` count (a port to Java, C# or JavaScript itself keeps that unit), where the spec counts
characters: a first message of 26 emoji (52 units) is cut to 23 emoji and ``...``, and a cut never splits
an emoji only because the port steps back over a lone surrogate.

Pattern: length limit measured in another unit (UTF-16 units vs characters); ASCII and CJK text have one
unit per character.
"""

from __future__ import annotations

from tools.mutation.semantic._sa_title import MAX_LENGTH, TitleMutant

AREAS = ("session",)
PATTERN = "length limit measured in UTF-16 units"


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _cut(text: str, units: int) -> str:
    kept = ""
    for char in text:
        if _units(kept + char) > units:
            break
        kept += char
    return kept


class Mutant(TitleMutant):
    name = "semantic-se_session_title_utf16_units"

    @staticmethod
    def rule(text: str) -> str | None:
        text = text.strip()
        if not text:
            return None
        return text if _units(text) <= MAX_LENGTH else _cut(text, MAX_LENGTH - 3) + "..."


implementation = Mutant
