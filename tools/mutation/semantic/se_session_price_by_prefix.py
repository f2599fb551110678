"""A model without an entry of its own is priced by the longest entry its name starts with: the port
"resolves" dated model ids to their family (``claude-sonnet-4-20250514`` priced by ``claude-sonnet-4``),
where the original looks the model up exactly (``pricing?.[model] ?? null``) and leaves the cost
unknown.  A table that lists only the family then bills every dated model at the family's price instead
of showing ``N/A``.

Pattern: two rules agree on the examples (every example model is listed under its own full name, or under
no name its own starts with).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session import usage as usage_module
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "agent", "repl")
PATTERN = "two rules agree on the examples"

_reference = usage_module.accumulate_usage


def _by_prefix(pricing: Mapping[str, Any] | None, model: str) -> Mapping[str, Any] | None:
    if pricing is None or model in pricing:
        return pricing
    families = [name for name in pricing if isinstance(name, str) and name and model.startswith(name)]
    if not families:
        return pricing
    return {**pricing, model: pricing[max(families, key=len)]}


def accumulate_usage(usage: Any, round_usage: Any, pricing: Any = None) -> Any:
    return _reference(usage, round_usage, _by_prefix(pricing, str(usage.get("model"))))


def _prefix_prices() -> Any:
    return swapped(session_module, "accumulate_usage", accumulate_usage)


class PrefixPricedSession(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        with _prefix_prices():
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-se_session_price_by_prefix"
    session_class = PrefixPricedSession

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return accumulate_usage(usage, round_usage, pricing)


implementation = Mutant
