"""Once a session's cost is unknown it stays unknown: the port keeps ``totalCost`` at ``null`` after an
unpriced round ("a total that misses a round is no total"), where the original's ``accumulateUsage``
adds the priced round to ``totalCost ?? 0``, so a session that ran first on a model without a price and
then on a priced one shows what the priced rounds cost instead of ``N/A``.

Pattern: state that one branch sets and no other clears; every example session is priced from its first
round or never.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "repl")
PATTERN = "state kept after one branch"


def sticky_unknown(usage: Mapping[str, Any], round_usage: Any, pricing: Any = None) -> Any:
    result = accumulate_usage(usage, round_usage, pricing)
    if usage.get("rounds") and usage.get("totalCost") is None:
        result["totalCost"] = None
    return result


class StickySession(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        with swapped(session_module, "accumulate_usage", sticky_unknown):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sk_session_cost_unknown_sticky"
    session_class = StickySession

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return sticky_unknown(usage, round_usage, pricing)


implementation = Mutant
