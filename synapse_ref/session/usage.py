"""Token usage of a session: running totals, the most recent rounds, and the cost line of ``/cost``."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from synapse_ref.session.paths import env_int

DEFAULT_MAX_ROUNDS_KEPT = 50
TOTAL_OF = {
    "inputOther": "totalInputOther",
    "output": "totalOutput",
    "inputCacheRead": "totalCacheRead",
    "inputCacheCreation": "totalCacheCreation",
}
PRICE_OF = {
    "inputOther": "inputPerMillion",
    "output": "outputPerMillion",
    "inputCacheRead": "cacheReadPerMillion",
    "inputCacheCreation": "cacheWritePerMillion",
}
ROUND_KEYS = tuple(TOTAL_OF)
TOTAL_KEYS = tuple(TOTAL_OF.values())

SessionUsage = dict[str, Any]


def max_rounds_kept() -> int:
    """``SYNAPSE_MAX_ROUNDS_KEPT`` (default 50), read at use so a setting change applies at once.

    Zero or a negative value falls back to the default: keeping no rounds at all would make an unpriced
    session indistinguishable from an empty one (``$0.00`` instead of ``N/A``).
    """
    value = env_int("SYNAPSE_MAX_ROUNDS_KEPT", DEFAULT_MAX_ROUNDS_KEPT)
    return value if value > 0 else DEFAULT_MAX_ROUNDS_KEPT


def create_empty_usage(model: str) -> SessionUsage:
    return {**dict.fromkeys(TOTAL_KEYS, 0), "model": model, "rounds": [], "totalCost": None}


def accumulate_usage(
    usage: Mapping[str, Any],
    round_usage: Mapping[str, int],
    pricing: Mapping[str, Mapping[str, float]] | None = None,
) -> SessionUsage:
    """A new usage record with one more round (a kind of tokens the round does not give counts 0).

    Totals always grow by the full round; only the per-round history is trimmed, so trimming never
    changes what the user is billed.  Without a price for the model the cost stays as it was (``None``
    stays ``None``), so an unknown price is never shown as zero.
    """
    result: SessionUsage = copy.deepcopy(dict(usage))
    entry = {key: round_usage.get(key) or 0 for key in ROUND_KEYS}
    for key, total in TOTAL_OF.items():
        result[total] = result.get(total, 0) + entry[key]
    result["rounds"] = [*result.get("rounds", []), entry][-max_rounds_kept() :]
    prices = pricing.get(result["model"]) if pricing is not None else None
    if prices is not None:
        cost = sum(entry[key] * prices[price] for key, price in PRICE_OF.items()) / 1_000_000
        result["totalCost"] = (result.get("totalCost") or 0) + cost
    else:
        result.setdefault("totalCost", None)
    return result


def reset_usage(usage: Mapping[str, Any]) -> SessionUsage:
    return create_empty_usage(usage["model"])


def _money(value: float) -> str:
    # JavaScript's toFixed(2) rounds an exact half away from zero; Python's format would round to even.
    return f"${Decimal(value).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)}"


def format_cost_output(usage: Mapping[str, Any]) -> str:
    """The ``/cost`` line, character for character as the original prints it."""
    cache_read = int(usage.get("totalCacheRead", 0))
    cache_write = int(usage.get("totalCacheCreation", 0))
    total_input = int(usage.get("totalInputOther", 0)) + cache_read + cache_write
    hit = math.floor(cache_read / total_input * 100 + 0.5) if total_input > 0 else 0
    total_cost = usage.get("totalCost")
    if total_cost is not None:
        cost = _money(float(total_cost))
    elif not usage.get("rounds"):
        cost = "$0.00"
    else:
        cost = "N/A"
    return (
        f"Token: {total_input:,} in / {int(usage.get('totalOutput', 0)):,} out | "
        f"Cache: {cache_read:,} read / {cache_write:,} write ({hit}% hit) | Cost: {cost}"
    )
