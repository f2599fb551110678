"""When the timeline is trimmed and every ``session:compact`` event falls in the dropped part, the port
keeps the *first* dropped one (``dropped.find(isCompact)``) where the rule keeps the last (the newest
compaction, which the cooldown counts from). With one compaction in the log both are the same event.

Pattern: keeping the first vs the last of duplicates; the examples trim a log with one compaction.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow.timeline import MAX_LINES_ENV, _max_lines_from_env
from tools.mutation.semantic._support import Delegate, patched_env

AREAS = ("workflow",)
PATTERN = "first vs last of duplicates"
UNBOUNDED = str(10**9)


def _is_compact(line: bytes) -> bool:
    try:
        event = json.loads(line)
    except ValueError:
        return False
    return isinstance(event, dict) and event.get("type") == "session:compact"


def trim_keeping_first(path: Path, max_lines: int) -> None:
    try:
        raw = path.read_bytes()
    except OSError:
        return
    if raw.count(b"\n") <= max_lines:
        return
    lines = raw.splitlines(keepends=True)
    kept, dropped = lines[-max_lines:], lines[:-max_lines]
    first = next((ln for ln in dropped if _is_compact(ln)), None)
    if first is not None and not any(_is_compact(ln) for ln in kept):
        kept = [first, *kept[1:]]
    path.write_bytes(b"".join(kept))


class Timeline(Delegate):
    def emit(self, session_id: str, event_type: str, data: Any = None) -> Any:
        limit = _max_lines_from_env()
        with patched_env(MAX_LINES_ENV, UNBOUNDED):
            event = self._inner.emit(session_id, event_type, data)
        trim_keeping_first(Path(self._inner.path(session_id)), limit)
        return event


class Workflow(Delegate):
    @property
    def timeline(self) -> Any:
        return Timeline(self._inner.timeline)

    def _untrimmed(self, call: Any, session_id: Any) -> Any:
        limit = _max_lines_from_env()
        with patched_env(MAX_LINES_ENV, UNBOUNDED):
            outcome = call()
        sid = session_id if isinstance(session_id, str) and session_id else None
        sid = str(sid or os.environ.get("CLAUDE_SESSION_ID", "")).strip()
        try:
            path = Path(self._inner.timeline.path(sid)) if sid else None
        except ValueError:  # an id the reference refuses: it wrote no timeline either
            path = None
        if path is not None:
            trim_keeping_first(path, limit)
        return outcome

    def on_stop(self, event: Any) -> Any:
        sid = event.get("session_id") if isinstance(event, dict) else None
        return self._untrimmed(lambda: self._inner.on_stop(event), sid)

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            event = None
        sid = event.get("session_id") if isinstance(event, dict) else None
        return self._untrimmed(lambda: self._inner.on_stop_command(stdin), sid)


class Mutant(ReferenceImplementation):
    name = "semantic-sd_wf_trim_keeps_first_compact"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
