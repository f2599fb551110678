"""The token estimate of a turn falls back to its text only when it has no raw content at all: the
port "modernises" the original's ``JSON.stringify(turn.rawContent || turn.content)`` to ``??`` (Python:
``raw if raw is not None else content``), as linters suggest.  The two differ for a falsy raw content:
a line whose ``content`` is ``false`` or ``0`` is estimated from ``false`` (5 characters) or ``0`` (1)
instead of the turn's empty text ``""`` (2).  Empty strings, ``null`` and the falsy-in-Python ``[]``
and ``{}`` give two characters under both rules, so the examples, which hold only those, agree.

Pattern: ``??`` against ``||`` for a falsy value.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.conversation_reader import _json_length
from tools.mutation.semantic._support import Delegate, env_positive_int, replace_record

AREAS = ("reader",)
PATTERN = "?? against || for a falsy value"


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        per_token = env_positive_int("SYNAPSE_CHARS_PER_TOKEN", 4)
        estimated = 0
        for turn in turns:
            raw = getattr(turn, "raw_content", None)
            value = raw if raw is not None else turn.content
            estimated += -(-_json_length(value) // per_token)
        return replace_record(summary, estimated_tokens=estimated)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_summary_raw_nullish"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
