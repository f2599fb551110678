"""Per-model prices (``pricing.json``): model -> USD per million tokens of each kind."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from pathlib import Path
from typing import cast

from synapse_ref.js_text import json_parse
from synapse_ref.session.paths import pricing_path

logger = logging.getLogger("synapse.session.pricing")

PRICE_KEYS = ("inputPerMillion", "outputPerMillion", "cacheReadPerMillion", "cacheWritePerMillion")

PricingConfig = Mapping[str, Mapping[str, float]]


def _is_price(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_pricing(data: object) -> bool:
    """The original's schema: a record of model -> the four prices, every one a finite number."""
    return isinstance(data, dict) and all(
        isinstance(prices, dict) and all(_is_price(prices.get(key)) for key in PRICE_KEYS)
        for prices in data.values()
    )


def load_pricing(path: Path | None = None) -> PricingConfig | None:
    """The pricing table at ``path`` (default ``<SYNAPSE_HOME>/pricing.json``).

    A missing or invalid file means "no pricing": costs are then shown as ``N/A`` rather than guessed,
    and a warning says which file was ignored and why.  The file is read as the original reads it: as
    text by ``readFileSync(path, 'utf-8')``, which turns a byte that is no UTF-8 into U+FFFD (a model name
    saved in another encoding spoils that name, not the table), then by ``JSON.parse``, so a ``NaN`` or
    ``Infinity`` anywhere, even in a field beside the prices, makes it no JSON.
    """
    target = path if path is not None else pricing_path()
    try:
        data = json_parse(target.read_bytes().decode("utf-8", errors="replace"))
    except FileNotFoundError:
        logger.warning("Pricing file not found, costs unavailable: %s", target)
        return None
    except (OSError, ValueError, RecursionError) as exc:
        # ValueError covers invalid JSON and numbers too long to convert.
        logger.warning("Failed to load pricing from %s, costs unavailable: %s", target, exc)
        return None
    if not _is_pricing(data):
        logger.warning(
            "Pricing file %s does not give every model the four prices per million tokens, costs unavailable",
            target,
        )
        return None
    return cast(PricingConfig, data)
