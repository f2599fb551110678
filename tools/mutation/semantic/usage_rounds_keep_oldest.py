"""The per-round usage history keeps the *first* ``SYNAPSE_MAX_ROUNDS_KEPT`` rounds: new rounds are
dropped once the list is full (``if len(rounds) < max: rounds.append(r)``), a common way to bound a list.

Pattern: a boundary tested only at one side; both rules agree until the list overflows, and only the
content of the kept rounds (not their count) tells which end was kept.
"""

from __future__ import annotations

import copy
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import env_positive_int

AREAS = ("session",)
PATTERN = "boundary tested at one side only"


class Mutant(ReferenceImplementation):
    name = "semantic-usage_rounds_keep_oldest"

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        result = super().accumulate_usage(usage, round_usage, pricing)
        limit = env_positive_int("SYNAPSE_MAX_ROUNDS_KEPT", 50)
        rounds = [*copy.deepcopy(list(usage.get("rounds") or [])), result["rounds"][-1]]
        result["rounds"] = rounds[:limit]
        return result


implementation = Mutant
