"""Whether to suggest ``/compact`` when a stage passes: the strategic compact decision.

All four conditions must hold:

1. the transcript is strictly larger than ``thresholdBytes`` (default 5_000_000, or
   ``SYNAPSE_COMPACT_THRESHOLD_MB`` in decimal megabytes, read when used; an explicit option wins).  The
   setting's bytes are not rounded: 1.0000007 MB is 1,000,000.7 bytes, which 1,000,001 bytes exceed;
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

import math
import os
import stat
from collections.abc import Mapping
from typing import Any

from synapse_ref.js_text import number
from synapse_ref.workflow.format import format_size
from synapse_ref.workflow.state import WorkflowStore, pending_stages
from synapse_ref.workflow.timeline import Timeline

THRESHOLD_ENV = "SYNAPSE_COMPACT_THRESHOLD_MB"
DEFAULT_THRESHOLD_BYTES = 5_000_000
DEFAULT_MIN_STAGES_SINCE_COMPACT = 2

OPTION_NAMES = ("thresholdBytes", "minStagesSinceCompact")

CompactSuggestion = dict[str, Any]
"""``{"suggest": True, "reason": str, "transcriptSize": int}`` or exactly ``{"suggest": False}``."""

NO_SUGGESTION: Mapping[str, bool] = {"suggest": False}


def threshold_from_env() -> float:
    """The setting in bytes, a fraction kept (``thresholdMb * 1_000_000`` as the original computes it)."""
    megabytes = number(os.environ.get(THRESHOLD_ENV, ""))
    if not math.isfinite(megabytes) or megabytes <= 0:
        return DEFAULT_THRESHOLD_BYTES
    return megabytes * 1_000_000


def _whole_number(value: object) -> bool:
    """An integer as JavaScript sees one (``Number.isInteger``): ``3e6`` and ``3000000.0`` are the same
    number as ``3000000`` (JSON has one number type, and ``JSON.stringify`` writes ``3000000.0`` as
    ``3000000``), so a float with no fraction is as good as an int."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def resolve_options(options: Mapping[str, Any] | None) -> tuple[float, int]:
    """``(threshold_bytes, min_stages_since_compact)`` from the seed's ``options`` mapping."""
    chosen: dict[str, float] = {}
    for key, value in (options or {}).items():
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown shouldSuggestCompact option: {key!r}")
        if not _whole_number(value) or value < 0:
            raise ValueError(f"{key} must be a non-negative integer, got {value!r}")
        chosen[key] = int(value)
    return (
        chosen.get("thresholdBytes", threshold_from_env()),
        int(chosen.get("minStagesSinceCompact", DEFAULT_MIN_STAGES_SINCE_COMPACT)),
    )


def should_suggest_compact(
    *,
    transcript_path: str | os.PathLike[str] | None = None,
    session_id: str | None = None,
    state: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    timeline: Timeline,
    store: WorkflowStore,
) -> CompactSuggestion:
    """Decide; ``state`` defaults to the session's ``workflow.json``.  Bad options are a caller error
    (``ValueError``); everything else degrades to ``{"suggest": False}``."""
    threshold, min_stages = resolve_options(options)
    if not transcript_path or session_id is None:
        return dict(NO_SUGGESTION)
    try:
        info = os.stat(transcript_path)
        if not stat.S_ISREG(info.st_mode) or info.st_size <= threshold:
            return dict(NO_SUGGESTION)
        current = state if state is not None else store.read(session_id)
        if current is None or not pending_stages(current):
            return dict(NO_SUGGESTION)
        events = timeline.events(session_id, strict=True)
    except (OSError, ValueError):
        return dict(NO_SUGGESTION)
    compact_at = max((i for i, e in enumerate(events) if e["type"] == "session:compact"), default=None)
    if compact_at is not None:
        since = sum(1 for e in events[compact_at + 1 :] if e["type"] == "stage:complete")
        if since < min_stages:
            return dict(NO_SUGGESTION)
    return {
        "suggest": True,
        "reason": f"transcript 大小 {format_size(info.st_size)} 超過閾值 {format_size(threshold)}",
        "transcriptSize": info.st_size,
    }
