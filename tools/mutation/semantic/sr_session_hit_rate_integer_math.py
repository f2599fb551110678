"""The cache hit percentage of ``/cost`` is computed in integers, rounding half up
(``(read * 100 + total / 2) / total`` in a language whose ``/`` truncates, or ``read * 100 / total`` before
``Math.round``): a port that avoids floating point for a percentage, where the original divides first and
multiplies after (``Math.round((totalCacheRead / totalInput) * 100)``).  The two agree on every exact
half (100 of 800 is 12.5%, 13 either way) but not where the division's binary result lies just below
one: 29 of 200 is ``0.145``, times 100 ``14.499999999999998``, which the original rounds to 14%, the
integer rule to 15%.

Pattern: two rules agree on the examples; each hit rate shown is either far from a half or an exact one.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "two rules agree on the examples"


def integer_hit_rate(read: int, total: int) -> int:
    return (read * 100 + total // 2) // total if total > 0 else 0


class Mutant(ReferenceImplementation):
    name = "semantic-sr_session_hit_rate_integer_math"

    def format_cost_output(self, usage: Any) -> str:
        text = super().format_cost_output(usage)
        try:
            read = int(usage.get("totalCacheRead", 0))
            total = int(usage.get("totalInputOther", 0)) + read + int(usage.get("totalCacheCreation", 0))
        except (TypeError, ValueError, OverflowError):
            return text  # values the reference refuses: its own answer, the bug is elsewhere
        return re.sub(r"\(\d+% hit\)", f"({integer_hit_rate(read, total)}% hit)", text)

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
