"""Context-layer settings and their ``SYNAPSE_*`` environment variables.

The parsers follow the original's (``parseInt``-like: leading digits, ``'2.9'`` is 2), and an invalid
value falls back to the default instead of failing, so a typo in the environment never stops the agent.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

from synapse_ref.js_text import parse_float, parse_int, trim


def parse_env_int(value: str | None, fallback: int) -> int:
    """Leading integer of ``value`` (like JavaScript's ``parseInt(v, 10)``), else ``fallback``."""
    parsed = None if value is None else parse_int(value)
    return fallback if parsed is None else parsed


def parse_env_positive_int(value: str | None, fallback: int) -> int:
    parsed = parse_env_int(value, fallback)
    return parsed if parsed > 0 else fallback


def parse_env_scan_ratio(value: str | None, fallback: float) -> float:
    """A ratio in ``(0, 1]``; anything else falls back."""
    ratio = None if value is None else parse_float(value)
    return ratio if ratio is not None and math.isfinite(ratio) and 0 < ratio <= 1 else fallback


def parse_env_optional_string(value: str | None) -> str | None:
    if value is None:
        return None
    stripped = trim(value)
    return stripped or None


@dataclass
class ContextSettings:
    """Thresholds of offload and compaction; the defaults are the original's."""

    offload_threshold: int = 150000
    offload_scan_ratio: float = 0.5
    offload_min_chars: int = 50
    compact_trigger_threshold: int = 15000
    compact_target_tokens: int = 8000
    compact_preserve_count: int = 5
    compact_retry_count: int = 3
    compact_model: str | None = None
    compact_cooldown_steps: int = 5

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ContextSettings:
        """Settings from ``env`` (default: ``os.environ`` as it is now, not at import)."""
        source = os.environ if env is None else env
        d = cls()
        return cls(
            offload_threshold=parse_env_positive_int(
                source.get("SYNAPSE_OFFLOAD_THRESHOLD"), d.offload_threshold
            ),
            offload_scan_ratio=parse_env_scan_ratio(
                source.get("SYNAPSE_OFFLOAD_SCAN_RATIO"), d.offload_scan_ratio
            ),
            offload_min_chars=parse_env_positive_int(
                source.get("SYNAPSE_OFFLOAD_MIN_CHARS"), d.offload_min_chars
            ),
            compact_trigger_threshold=parse_env_positive_int(
                source.get("SYNAPSE_COMPACT_TRIGGER_THRESHOLD"), d.compact_trigger_threshold
            ),
            compact_target_tokens=parse_env_positive_int(
                source.get("SYNAPSE_COMPACT_TARGET_TOKENS"), d.compact_target_tokens
            ),
            compact_preserve_count=parse_env_positive_int(
                source.get("SYNAPSE_COMPACT_PRESERVE_COUNT"), d.compact_preserve_count
            ),
            compact_retry_count=parse_env_positive_int(
                source.get("SYNAPSE_COMPACT_RETRY_COUNT"), d.compact_retry_count
            ),
            compact_model=parse_env_optional_string(source.get("SYNAPSE_COMPACT_MODEL")),
            compact_cooldown_steps=parse_env_positive_int(
                source.get("SYNAPSE_COMPACT_COOLDOWN_STEPS"), d.compact_cooldown_steps
            ),
        )
