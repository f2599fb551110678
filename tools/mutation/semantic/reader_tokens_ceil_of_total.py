"""``summarize`` estimates tokens as ``ceil(total characters / charsPerToken)`` over the whole
conversation, where the original rounds up per turn and adds (``sum(ceil(len_i / cpt))``).

Pattern: two plausible rules that give the same answer on the examples: when every turn's JSON length
is a multiple of ``charsPerToken``, or there is one turn, both sums agree.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, env_positive_int, patched_env, replace_record

AREAS = ("reader",)
PATTERN = "two rules agree on the examples (ratio on whole multiples)"


class Reader(Delegate):
    def summarize(self, turns: Any) -> Any:
        summary = self._inner.summarize(turns)
        per_token = env_positive_int("SYNAPSE_CHARS_PER_TOKEN", 4)
        # The reference's per-turn length in characters: its estimate at one character per token.
        with patched_env("SYNAPSE_CHARS_PER_TOKEN", "1"):
            total = sum(int(self._inner.summarize([t]).estimated_tokens) for t in turns)
        return replace_record(summary, estimated_tokens=math.ceil(total / per_token))


class Mutant(ReferenceImplementation):
    name = "semantic-reader_tokens_ceil_of_total"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
