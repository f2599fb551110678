"""Where the session layer keeps its files, resolved from ``SYNAPSE_*`` settings when asked."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def synapse_home(env: Mapping[str, str] | None = None) -> Path:
    """``$SYNAPSE_HOME``, else ``~/.synapse`` (resolved on every call so tests can redirect it)."""
    source = os.environ if env is None else env
    value = source.get("SYNAPSE_HOME", "").strip()
    return Path(value).expanduser() if value else Path.home() / ".synapse"


def sessions_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$SYNAPSE_SESSIONS_DIR``, else ``<home>/sessions``."""
    source = os.environ if env is None else env
    value = source.get("SYNAPSE_SESSIONS_DIR", "").strip()
    return Path(value).expanduser() if value else synapse_home(source) / "sessions"


def pricing_path(env: Mapping[str, str] | None = None) -> Path:
    """``<home>/pricing.json``; unlike the original it follows ``SYNAPSE_HOME``."""
    return synapse_home(env) / "pricing.json"


def env_int(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    """An integer setting read at use; anything unparsable falls back to the default (as ``parseInt``)."""
    source = os.environ if env is None else env
    raw = source.get(name)
    if raw is None:
        return default
    text = raw.strip()
    sign = ""
    if text[:1] in "+-" and text:
        sign, text = text[0], text[1:]
    digits = ""
    for char in text:
        if char not in "0123456789":
            break
        digits += char
    if not digits:
        return default
    return int(sign + digits)
