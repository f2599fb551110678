"""``compact(turns, maxChars)`` limits the text for any non-zero ``maxChars``: the port writes ``if
(maxChars && result.length > maxChars)`` (``0`` is "no limit", so a truthiness test reads naturally),
where the original tests ``maxChars > 0``; a negative limit then slices from past the end of the text
(``result.slice(result.length - maxChars)``) and the compact text is empty, where it should be whole.

Pattern: a default applied when the value is 0 (``x || default``, truthiness for "not set"); the
examples give 0 and positive limits only.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "default applied when the value is 0"


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        text = str(self._inner.compact(turns))
        if max_chars and len(text) > max_chars:
            tail = text[len(text) - max_chars :]  # JavaScript's slice: past the end for a negative limit
            if max_chars < 0:
                return tail
            return str(self._inner.compact(turns, max_chars))
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-sh_reader_compact_negative_max"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
