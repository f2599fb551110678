"""``/cost`` reads the total cost with a falsy default (``usage.totalCost || null``), so a cost known to
be zero (a free model, or rounds of cached tokens priced at 0) is taken for an unknown one: once a
round is recorded the line says ``Cost: N/A`` instead of ``Cost: $0.00``.

Pattern: a default applied when the value is 0; the examples' zero costs come with no rounds, where
the unknown cost is shown as ``$0.00`` too.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "default applied when the value is 0"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_usage_zero_cost_unknown"

    def format_cost_output(self, usage: Any) -> str:
        cost = usage.get("totalCost")
        if isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost == 0:
            usage = {**usage, "totalCost": None}
        return super().format_cost_output(usage)

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
