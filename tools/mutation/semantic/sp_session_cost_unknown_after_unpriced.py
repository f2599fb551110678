"""A round without a price makes the whole cost unknown: the port writes
``totalCost = pricing ? (totalCost ?? 0) + cost : null`` ("a partial sum would understate the bill"),
where the original keeps what the priced rounds cost (``pricing === null ? totalCost : ...``).  A
session that switches to a model missing from ``pricing.json`` loses the cost of every round before the
switch, and ``/cost`` says ``N/A``.

Pattern: state checked after one branch only; the unpriced examples start from an unknown cost, the
priced ones never meet an unpriced round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "repl")
PATTERN = "state checked after one branch only"


def accumulate_forgetting_cost(
    usage: Mapping[str, Any], round_usage: Mapping[str, int], pricing: Any = None
) -> dict[str, Any]:
    result = accumulate_usage(usage, round_usage, pricing)
    if pricing is None or pricing.get(result["model"]) is None:
        result["totalCost"] = None
    return result


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        with swapped(session_module, "accumulate_usage", accumulate_forgetting_cost):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sp_session_cost_unknown_after_unpriced"
    session_class = Session

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return accumulate_forgetting_cost(usage, round_usage, pricing)


implementation = Mutant
