"""Token usage of one model round, in the on-disk shape of the session index."""

from __future__ import annotations

USAGE_KEYS = ("inputOther", "output", "inputCacheRead", "inputCacheCreation")


def empty_usage() -> dict[str, int]:
    return dict.fromkeys(USAGE_KEYS, 0)
