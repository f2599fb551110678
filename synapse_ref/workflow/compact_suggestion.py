"""Whether to suggest ``/compact`` when a stage passes: the strategic compact decision.

All four conditions must hold:

1. the transcript is strictly larger than ``thresholdBytes`` (default 5_000_000, or
   ``SYNAPSE_COMPACT_THRESHOLD_MB`` in decimal megabytes, read when used; an explicit option wins);
2. the workflow state still has a stage that is not completed;
3. at least ``minStagesSinceCompact`` (default 2) ``stage:complete`` events follow the latest
   ``session:compact`` event in the timeline (file order: the log is append-only);
4. a session never compacted skips condition 3.

It never raises for a bad path, an unreadable transcript, a missing state or a damaged timeline: the
hook that asks must keep working, so every such failure is just ``{"suggest": False}``.  A corrupt
timeline counts as a failure rather than "never compacted", because guessing would suggest compacting
right after a compaction.
"""

from __future__ import annotations

import logging
import math
import os
import stat
from collections.abc import Mapping
from typing import Any

from synapse_ref.workflow.format import format_size
from synapse_ref.workflow.state import WorkflowStore, pending_stages
from synapse_ref.workflow.timeline import Timeline

logger = logging.getLogger("synapse.workflow.compact")

THRESHOLD_ENV = "SYNAPSE_COMPACT_THRESHOLD_MB"
DEFAULT_THRESHOLD_BYTES = 5_000_000
DEFAULT_MIN_STAGES_SINCE_COMPACT = 2

_OPTION_KEYS = {
    "thresholdBytes": "threshold_bytes",
    "threshold_bytes": "threshold_bytes",
    "minStagesSinceCompact": "min_stages_since_compact",
    "min_stages_since_compact": "min_stages_since_compact",
}

CompactSuggestion = dict[str, Any]
"""``{"suggest": True, "reason": str, "transcriptSize": int}`` or exactly ``{"suggest": False}``."""

NO_SUGGESTION: Mapping[str, bool] = {"suggest": False}


def threshold_from_env() -> int:
    raw = os.environ.get(THRESHOLD_ENV, "").strip()
    try:
        megabytes = float(raw)
    except ValueError:
        return DEFAULT_THRESHOLD_BYTES
    if not math.isfinite(megabytes) or megabytes <= 0:
        return DEFAULT_THRESHOLD_BYTES
    return round(megabytes * 1_000_000)


def resolve_options(
    options: Mapping[str, Any] | None,
    threshold_bytes: int | None = None,
    min_stages_since_compact: int | None = None,
) -> tuple[int, int]:
    """Merge the seed's ``options`` mapping (camelCase or snake_case keys) with keyword overrides."""
    chosen: dict[str, int | None] = {"threshold_bytes": None, "min_stages_since_compact": None}
    for key, value in (options or {}).items():
        if key not in _OPTION_KEYS:
            raise ValueError(f"unknown shouldSuggestCompact option: {key!r}")
        chosen[_OPTION_KEYS[key]] = _non_negative_int(key, value)
    if threshold_bytes is not None:
        chosen["threshold_bytes"] = _non_negative_int("threshold_bytes", threshold_bytes)
    if min_stages_since_compact is not None:
        chosen["min_stages_since_compact"] = _non_negative_int(
            "min_stages_since_compact", min_stages_since_compact
        )
    threshold = chosen["threshold_bytes"]
    min_stages = chosen["min_stages_since_compact"]
    return (
        threshold if threshold is not None else threshold_from_env(),
        min_stages if min_stages is not None else DEFAULT_MIN_STAGES_SINCE_COMPACT,
    )


def _non_negative_int(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def should_suggest_compact(
    *,
    transcript_path: str | os.PathLike[str] | None = None,
    session_id: str | None = None,
    state: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    threshold_bytes: int | None = None,
    min_stages_since_compact: int | None = None,
    timeline: Timeline,
    store: WorkflowStore,
) -> CompactSuggestion:
    """Decide; ``state`` defaults to the session's ``workflow.json``.  Bad options are a caller error
    (``ValueError``); everything else degrades to ``{"suggest": False}``."""
    threshold, min_stages = resolve_options(options, threshold_bytes, min_stages_since_compact)
    if not transcript_path:
        return dict(NO_SUGGESTION)
    try:
        info = os.stat(transcript_path)
    except (OSError, ValueError) as exc:
        logger.debug("transcript %s cannot be inspected: %s", transcript_path, exc)
        return dict(NO_SUGGESTION)
    if not stat.S_ISREG(info.st_mode):
        return dict(NO_SUGGESTION)
    size = info.st_size
    if size <= threshold:
        return dict(NO_SUGGESTION)
    try:
        if session_id is None:
            return dict(NO_SUGGESTION)
        current = state if state is not None else store.read(session_id)
        if current is None or not pending_stages(current):
            return dict(NO_SUGGESTION)
        events = timeline.events(session_id, strict=True)
    except Exception as exc:
        logger.debug("compact suggestion skipped for %s: %s", session_id, exc)
        return dict(NO_SUGGESTION)
    compact_at = max((i for i, e in enumerate(events) if e["type"] == "session:compact"), default=None)
    if compact_at is not None:
        since = sum(1 for e in events[compact_at + 1 :] if e["type"] == "stage:complete")
        if since < min_stages:
            return dict(NO_SUGGESTION)
    return {
        "suggest": True,
        "reason": f"transcript 大小 {format_size(size)} 超過閾值 {format_size(threshold)}",
        "transcriptSize": size,
    }
