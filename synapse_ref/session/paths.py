"""Where the session layer keeps its files, resolved from ``SYNAPSE_*`` settings when asked."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from synapse_ref.js_text import parse_int


def synapse_home() -> Path:
    """``$SYNAPSE_HOME``, else ``~/.synapse`` (resolved on every call so tests can redirect it)."""
    value = os.environ.get("SYNAPSE_HOME")
    return Path(value) if value else Path.home() / ".synapse"


def pricing_path() -> Path:
    """``<home>/pricing.json``; unlike the original it follows ``SYNAPSE_HOME``."""
    return synapse_home() / "pricing.json"


def env_int(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    """An integer setting read at use, parsed like ``parseInt``: optional blanks and sign, then the
    leading digits; a value without them falls back to the default."""
    source = os.environ if env is None else env
    parsed = parse_int(source.get(name, ""))
    return default if parsed is None else parsed
