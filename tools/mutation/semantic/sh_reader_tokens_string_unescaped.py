"""``summarize`` measures a turn whose content is a plain string as the string's length plus its two
quotes: the port skips serialising the most common content ("the JSON of a string is the string in
quotes"), where the original measures ``JSON.stringify(content)``, in which a newline, a tab, a quote or a
backslash is an escape of two characters (a control character one of six), so a multi-line prompt or a
Windows path is estimated at fewer tokens than the original gives.

Pattern: inputs that carry two things rendered by different rules (a string's characters and their JSON
escapes); every string content of the examples is plain text without a character JSON escapes.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.conversation_reader import _json_length
from tools.mutation.semantic._support import Delegate, env_positive_int, replace_record

AREAS = ("reader",)
PATTERN = "two things rendered by different rules"


def length(value: Any) -> int:
    return len(value) + 2 if isinstance(value, str) else _json_length(value)


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        per_token = env_positive_int("SYNAPSE_CHARS_PER_TOKEN", 4)
        values = [getattr(turn, "raw_content", None) or turn.content for turn in turns]
        estimated = sum(math.ceil(length(value) / per_token) for value in values)
        return replace_record(summary, estimated_tokens=estimated)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_reader_tokens_string_unescaped"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
