"""The cache hit percentage of ``/cost`` is truncated (``Math.floor(read / input * 100)``) instead of
rounded half up.

Pattern: two rules that agree on the examples; 25%, 50% or 0% come out the same, 2/3 (66.7%) does not.
"""

from __future__ import annotations

import math
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "two rules agree on the examples"


class Mutant(ReferenceImplementation):
    name = "semantic-usage_hit_rate_floor"

    def format_cost_output(self, usage: Any) -> str:
        text = super().format_cost_output(usage)
        try:
            read = int(usage.get("totalCacheRead", 0))
            total = int(usage.get("totalInputOther", 0)) + read + int(usage.get("totalCacheCreation", 0))
        except (TypeError, ValueError, OverflowError):
            return text  # values the reference refuses: its own answer, the bug is elsewhere
        hit = math.floor(read / total * 100) if total > 0 else 0
        return re.sub(r"\(\d+% hit\)", f"({hit}% hit)", text)

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
