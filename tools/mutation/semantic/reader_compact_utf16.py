"""``compact(turns, maxChars)`` measures the tail in UTF-16 code units, as a port that kept JavaScript's
``string.length`` arithmetic would (``text.slice(-maxChars)`` on UTF-16 strings).

Pattern: a length limit checked only on ASCII (and CJK, which is one unit per character): an emoji
counts twice, so a tail holding emoji comes out shorter than ``maxChars`` characters.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, align_tail

AREAS = ("reader",)
PATTERN = "length limit checked only on ASCII"


def utf16_tail(text: str, units: int) -> str:
    taken, start = 0, len(text)
    while start > 0:
        width = 2 if ord(text[start - 1]) > 0xFFFF else 1
        if taken + width > units:
            break
        taken += width
        start -= 1
    return text[start:]


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        text: str = self._inner.compact(turns, 0)
        if max_chars <= 0 or len(text.encode("utf-16-le")) // 2 <= max_chars:
            return text
        return align_tail(text, utf16_tail(text, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-reader_compact_utf16"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
