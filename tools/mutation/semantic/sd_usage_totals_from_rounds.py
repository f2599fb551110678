"""The usage totals are recomputed from the per-round history after each round
(``totalOutput = rounds.reduce((s, r) => s + r.output, 0)``), a port's way to keep them "consistent";
once ``SYNAPSE_MAX_ROUNDS_KEPT`` trims the history, the rounds that fell out are no longer billed, where
the totals must always grow by the full round.

Pattern: two rules agree on the examples until the history overflows; a check of the kept rounds alone
cannot tell them apart.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "two rules agree on the examples"
TOTAL_OF = {
    "inputOther": "totalInputOther",
    "output": "totalOutput",
    "inputCacheRead": "totalCacheRead",
    "inputCacheCreation": "totalCacheCreation",
}


class Mutant(ReferenceImplementation):
    name = "semantic-sd_usage_totals_from_rounds"

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        result = super().accumulate_usage(usage, round_usage, pricing)
        rounds = list(result.get("rounds") or [])
        for key, total in TOTAL_OF.items():
            result[total] = sum(int(r.get(key) or 0) for r in rounds)
        return result


implementation = Mutant
