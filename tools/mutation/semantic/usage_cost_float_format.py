"""``/cost`` formats the cost with the language's float formatting (``f"{cost:.2f}"``), which rounds the
binary value half-to-even, where the original's ``toFixed(2)`` is matched with half-up rounding.

Pattern: two rules that agree on the examples; they differ only on a cost that lies on a half cent.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "two rules agree on the examples"


class Mutant(ReferenceImplementation):
    name = "semantic-usage_cost_float_format"

    def format_cost_output(self, usage: Any) -> str:
        text = super().format_cost_output(usage)
        cost = usage.get("totalCost")
        if cost is None:
            return text
        try:
            shown = f"${float(cost):.2f}"
        except (TypeError, ValueError, OverflowError):
            return text
        return re.sub(r"Cost: \$[0-9.,]+$", f"Cost: {shown}", text)

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
