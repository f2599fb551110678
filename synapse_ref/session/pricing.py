"""Per-model prices (``pricing.json``): model -> USD per million tokens of each kind."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from pathlib import Path

from synapse_ref.session.paths import pricing_path

logger = logging.getLogger("synapse.session.pricing")

PRICE_KEYS = ("inputPerMillion", "outputPerMillion", "cacheReadPerMillion", "cacheWritePerMillion")

ModelPricing = dict[str, float]
PricingConfig = dict[str, ModelPricing]


def validate_pricing(data: object) -> PricingConfig:
    """The table if it has the documented shape; ``ValueError`` naming the first problem otherwise."""
    if not isinstance(data, dict):
        raise ValueError("pricing must be a JSON object of model -> prices")
    table: PricingConfig = {}
    for model, prices in data.items():
        if not isinstance(prices, dict):
            raise ValueError(f"pricing for {model!r} must be an object")
        entry: ModelPricing = {}
        for key in PRICE_KEYS:
            value = prices.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"pricing for {model!r}: {key} must be a finite number")
            entry[key] = float(value)
        table[model] = entry
    return table


def load_pricing(path: Path | None = None) -> PricingConfig | None:
    """The pricing table at ``path`` (default ``<SYNAPSE_HOME>/pricing.json``).

    A missing or invalid file means "no pricing": costs are then shown as ``N/A`` rather than guessed,
    and a warning says which file was ignored and why.
    """
    target = path if path is not None else pricing_path()
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
        return validate_pricing(data)
    except FileNotFoundError:
        logger.warning("Pricing file not found, costs unavailable: %s", target)
    except (OSError, ValueError) as exc:
        logger.warning("Failed to load pricing from %s, costs unavailable: %s", target, exc)
    return None


def pricing_for(config: Mapping[str, Mapping[str, float]] | None, model: str) -> Mapping[str, float] | None:
    return None if config is None else config.get(model)
