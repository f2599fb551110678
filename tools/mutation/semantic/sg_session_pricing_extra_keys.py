"""``pricing.json`` is validated with a closed schema: the port declares each model's prices as a record
that admits the four prices and nothing else (``additionalProperties: false``, ``extra="forbid"``, a
strict struct decoder), where the original's zod object accepts and ignores further fields.  A pricing
file that notes a currency or a source beside the prices is refused as invalid, and every cost becomes
unknown.

Pattern: a rule stricter than the original's; every example pricing file holds the four prices only.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.pricing import PRICE_KEYS, load_pricing
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession, swapped

AREAS = ("session",)
PATTERN = "rule stricter than the original's"


def closed_load_pricing(path: Path | None = None) -> Any:
    pricing = load_pricing(path)
    if pricing is None:
        return None
    for model, prices in pricing.items():
        extra = sorted(set(prices) - set(PRICE_KEYS))
        if extra:
            logging.getLogger("synapse.session.pricing").warning(
                "Pricing of %s has unknown fields %s, costs unavailable", model, extra
            )
            return None
    return pricing


class ClosedPricingSession(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "load_pricing", closed_load_pricing)

    def update_usage(self, usage: Any, model: str | None = None) -> None:
        with swapped(session_module, *self._mut_swap):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sg_session_pricing_extra_keys"
    session_class = ClosedPricingSession


implementation = Mutant
