"""Token usage of a session: running totals, the most recent rounds, and the cost line of ``/cost``."""

from __future__ import annotations

import copy
import logging
import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from synapse_ref.session.paths import env_int

logger = logging.getLogger("synapse.session.usage")

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
        total_cost = (result.get("totalCost") or 0) + cost
        if _finite(total_cost):
            result["totalCost"] = total_cost
        else:
            # An overflowing price would be stored as a number JSON cannot hold; unknown is honest.
            logger.warning("Cost of model %s overflowed (%r), cost unavailable", result["model"], total_cost)
            result["totalCost"] = None
    else:
        result.setdefault("totalCost", None)
    return result


def reset_usage(usage: Mapping[str, Any]) -> SessionUsage:
    return create_empty_usage(usage["model"])


def _finite(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)


TO_FIXED_LIMIT = 1e21
"""From here on JavaScript's ``toFixed`` gives the number's shortest form (``1e+21``), as ``repr`` does."""


def _money(value: float | int) -> str | None:
    """``$`` and the amount as ``toFixed(2)`` writes it; None for an amount no double can hold."""
    try:
        amount = float(value)
    except OverflowError:
        return None
    if abs(amount) >= TO_FIXED_LIMIT:
        return f"${amount!r}"
    # toFixed(2) rounds an exact half away from zero; Python's format would round to even.
    return f"${Decimal(amount).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)}"


def _tokens(usage: Mapping[str, Any], key: str) -> int | None:
    """A token total as an integer, or None (logged) when the record holds no usable count there."""
    value = usage.get(key, 0)
    if _finite(value):
        count = int(value)
        if count.bit_length() < 10_000:  # printable: Python refuses to print ints of over 4300 digits
            return count
    logger.warning("Usage %s is not a token count (%s); shown as N/A", key, _describe(value))
    return None


def _describe(value: object) -> str:
    if isinstance(value, int) and value.bit_length() >= 10_000:
        return f"an integer of {value.bit_length()} bits"
    return repr(value)[:40]


def _grouped(count: int | None) -> str:
    return "N/A" if count is None else f"{count:,}"


def format_cost_output(usage: Mapping[str, Any]) -> str:
    """The ``/cost`` line, character for character as the original prints it.

    A total or cost that is no finite number (a damaged record) is shown as ``N/A`` with a warning
    instead of failing the command.
    """
    cache_read = _tokens(usage, "totalCacheRead")
    cache_write = _tokens(usage, "totalCacheCreation")
    other = _tokens(usage, "totalInputOther")
    output = _tokens(usage, "totalOutput")
    total_input = (
        None
        if None in (cache_read, cache_write, other)
        else (other or 0) + (cache_read or 0) + (cache_write or 0)
    )
    if total_input is None or cache_read is None:
        hit = "N/A"
    else:
        hit = f"{math.floor(cache_read / total_input * 100 + 0.5) if total_input > 0 else 0}%"
    total_cost = usage.get("totalCost")
    if total_cost is not None:
        shown = _money(total_cost) if _finite(total_cost) else None
        if shown is None:
            logger.warning("Usage totalCost is not a finite amount (%s); shown as N/A", _describe(total_cost))
        cost = shown or "N/A"
    elif not usage.get("rounds"):
        cost = "$0.00"
    else:
        cost = "N/A"
    return (
        f"Token: {_grouped(total_input)} in / {_grouped(output)} out | "
        f"Cache: {_grouped(cache_read)} read / {_grouped(cache_write)} write ({hit} hit) | Cost: {cost}"
    )
