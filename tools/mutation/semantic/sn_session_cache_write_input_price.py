"""Cache-creation tokens are priced at the model's input price: the port sums ``(inputOther +
inputCacheCreation) * inputPerMillion`` ("writing the cache is reading input"), where the original prices
them at ``cacheWritePerMillion`` (1.25 times the input price for Anthropic's models).  Sessions that
write the cache are under-billed.

Pattern: two rules agree on the examples (every priced example has no cache writes, or a cache-write
price equal to the input price).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


def accumulate_writes_at_input(usage: Any, round_usage: Any, pricing: Any = None) -> Any:
    if pricing is not None:
        pricing = {
            model: {**prices, "cacheWritePerMillion": prices["inputPerMillion"]}
            if isinstance(prices, Mapping) and "inputPerMillion" in prices
            else prices
            for model, prices in pricing.items()
        }
    return accumulate_usage(usage, round_usage, pricing)


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        with swapped(session_module, "accumulate_usage", accumulate_writes_at_input):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sn_session_cache_write_input_price"
    session_class = Session

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return accumulate_writes_at_input(usage, round_usage, pricing)


implementation = Mutant
