"""``/cost`` shows ``$0.00`` for an unknown cost when the session has used no tokens: the port tells an
empty session by its totals (``totalInput + output === 0``), where the original asks whether any round
was recorded (``rounds.length === 0``).  A session that recorded rounds reporting no tokens (a provider
that gives no usage) on an unpriced model is billed ``$0.00`` instead of ``N/A``.

Pattern: two rules agree on the examples (the empty session has no rounds and no tokens; every session
with rounds used tokens).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "two rules agree on the examples"

TOKEN_TOTALS = ("totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation")


class Mutant(ReferenceImplementation):
    name = "semantic-sg_session_cost_free_without_tokens"

    def format_cost_output(self, usage: Any) -> str:
        text = super().format_cost_output(usage)
        head, sep, cost = text.rpartition(" | Cost: ")
        if usage.get("totalCost") is not None or cost != "N/A":
            return text
        totals = [usage.get(key, 0) for key in TOKEN_TOTALS]
        if all(isinstance(t, (int, float)) and not isinstance(t, bool) and t == 0 for t in totals):
            return head + sep + "$0.00"
        return text

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
