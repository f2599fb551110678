"""``summarize`` measures each turn's JSON text in UTF-16 code units (JavaScript's ``string.length``,
kept by a port that copied the arithmetic), where the spec counts characters: a turn holding emoji
is estimated at more tokens than its characters give.

Pattern: a length checked only on ASCII and CJK (one unit per character in UTF-16 too); an emoji
outside the Basic Multilingual Plane counts twice.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, env_positive_int, replace_record

AREAS = ("reader",)
PATTERN = "length limit checked only on ASCII"


def utf16_length(value: Any) -> int:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        per_token = env_positive_int("SYNAPSE_CHARS_PER_TOKEN", 4)
        try:
            lengths = [utf16_length(getattr(t, "raw_content", None) or t.content) for t in turns]
        except (RecursionError, ValueError, TypeError):
            return summary  # content the reference shows by a placeholder: its own answer
        estimated = sum(-(-length // per_token) for length in lengths)
        return replace_record(summary, estimated_tokens=estimated)


class Mutant(ReferenceImplementation):
    name = "semantic-sa_reader_tokens_utf16"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
