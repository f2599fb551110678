"""``SYNAPSE_CHARS_PER_TOKEN`` is read with ``parseFloat`` (a port that found a ratio natural), where the
spec reads integer settings like ``parseInt``: ``"2.9"`` means 2 characters per token, not 2.9.

Pattern: ``parseInt("1.5")`` style parsing; the examples give whole numbers or invalid text.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, patched_env, replace_record

AREAS = ("reader",)
PATTERN = "parseInt-style parsing"
NAME = "SYNAPSE_CHARS_PER_TOKEN"


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        found = re.match(r"\s*[+-]?(\d+\.\d*|\.\d+)", os.environ.get(NAME, ""))
        ratio = float(found.group(0)) if found else 0.0
        if not (math.isfinite(ratio) and ratio > 0) or ratio.is_integer():
            return summary
        # The reference's per-turn length in characters: its estimate at one character per token.
        with patched_env(NAME, "1"):
            lengths = [int(self._inner.summarize([t]).estimated_tokens) for t in turns]
        return replace_record(summary, estimated_tokens=sum(math.ceil(n / ratio) for n in lengths))


class Mutant(ReferenceImplementation):
    name = "semantic-sa_reader_chars_per_token_float"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
