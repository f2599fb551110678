"""``compact`` cuts a text exactly ``maxChars`` long as if it were too long: the port tests
``result.length >= maxChars`` and then, finding no newline before the window (``result[-1]`` is
``undefined``, not ``"\\n"``), drops the first line as a partial one, where the original keeps a text
that fits whole.

Pattern: ``>`` vs ``>=`` tested on one side only; every example text is shorter or longer than the limit.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "boundary tested at one side only"


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        text = str(self._inner.compact(turns, 0))
        if max_chars > 0 and len(text) == max_chars:
            newline = text.find("\n", 0, len(text) - 1)
            return text[newline + 1 :].lstrip("\n") if newline >= 0 else text
        return str(self._inner.compact(turns, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-sf_reader_tail_at_exact_length"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
