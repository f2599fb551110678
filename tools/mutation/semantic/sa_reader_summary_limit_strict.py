"""``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT`` is parsed strictly (a value that is not all digits means the
default of 200), where the spec reads it like ``parseInt``, as the original does: ``"50.9"`` or
``"50 chars"`` shorten tool results to 50 characters.

Pattern: ``parseInt("1.5")`` style parsing; the examples give whole numbers or words.
"""

from __future__ import annotations

import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, patched_env

AREAS = ("reader",)
PATTERN = "parseInt-style parsing"
NAME = "SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT"


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        value = os.environ.get(NAME)
        keep = value is not None and re.fullmatch(r"\s*[+-]?\d+\s*", value) is not None
        with patched_env(NAME, value if keep else None):
            text: str = self._inner.compact(turns, max_chars)
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-sa_reader_summary_limit_strict"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
