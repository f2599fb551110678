"""Token usage of a session: running totals, the most recent rounds, and the cost line of ``/cost``."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from synapse_ref.session.paths import env_int
from synapse_ref.session.pricing import pricing_for

DEFAULT_MAX_ROUNDS_KEPT = 50
ROUND_KEYS = ("inputOther", "output", "inputCacheRead", "inputCacheCreation")
TOTAL_KEYS = ("totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation")

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


def calculate_cost(round_usage: Mapping[str, int], pricing: Mapping[str, float]) -> float:
    return (
        round_usage.get("inputOther", 0) * pricing["inputPerMillion"]
        + round_usage.get("output", 0) * pricing["outputPerMillion"]
        + round_usage.get("inputCacheRead", 0) * pricing["cacheReadPerMillion"]
        + round_usage.get("inputCacheCreation", 0) * pricing["cacheWritePerMillion"]
    ) / 1_000_000


def accumulate_usage(
    usage: Mapping[str, Any],
    round_usage: Mapping[str, int],
    pricing: Mapping[str, Mapping[str, float]] | None = None,
    *,
    max_rounds: int | None = None,
) -> SessionUsage:
    """A new usage record with one more round.

    Totals always grow by the full round; only the per-round history is trimmed, so trimming never
    changes what the user is billed.  Without a price for the model the cost stays as it was (``None``
    stays ``None``), so an unknown price is never shown as zero.
    """
    limit = max_rounds_kept() if max_rounds is None else max_rounds
    result: SessionUsage = copy.deepcopy(dict(usage))
    entry = {key: int(round_usage.get(key) or 0) for key in ROUND_KEYS}
    for total, key in zip(TOTAL_KEYS, ROUND_KEYS, strict=True):
        result[total] = int(result.get(total, 0)) + entry[key]
    rounds = [*result.get("rounds", []), entry]
    result["rounds"] = rounds[-limit:] if limit > 0 else []
    prices = pricing_for(pricing, str(result.get("model", "")))
    if prices is not None:
        result["totalCost"] = (result.get("totalCost") or 0) + calculate_cost(entry, prices)
    else:
        result.setdefault("totalCost", None)
    return result


def reset_usage(usage: Mapping[str, Any]) -> SessionUsage:
    return create_empty_usage(str(usage.get("model", "unknown-model")))


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
