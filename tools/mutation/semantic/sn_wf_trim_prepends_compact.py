"""When the timeline is trimmed and its latest ``session:compact`` event falls in the dropped part, the
port puts that event in front of the kept lines (``[lastCompact, ...lines.slice(-max)]``), where the
rule keeps it in place of the oldest kept line, so the log never holds more than
``SYNAPSE_TIMELINE_MAX_LINES`` lines.  The port's log holds one line too many after every such trim,
and the oldest of the newest events stays one trim longer.

Pattern: off by one in a window; a trim whose kept part holds a compaction itself is the same in both.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow.timeline import BOM, MAX_LINES_ENV, _max_lines_from_env
from tools.mutation.semantic._support import Delegate, patched_env

AREAS = ("workflow",)
PATTERN = "off by one in a window"
UNBOUNDED = str(10**9)


def _is_compact(line: bytes) -> bool:
    try:
        event = json.loads(line)
    except ValueError:
        return False
    return isinstance(event, dict) and event.get("type") == "session:compact"


def trim_prepending(path: Path, max_lines: int) -> None:
    try:
        raw = path.read_bytes().removeprefix(BOM)
    except OSError:
        return
    if raw.count(b"\n") <= max_lines:
        return
    lines = raw.splitlines(keepends=True)
    kept, dropped = lines[-max_lines:], lines[:-max_lines]
    last = next((ln for ln in reversed(dropped) if _is_compact(ln)), None)
    if last is not None and not any(_is_compact(ln) for ln in kept):
        kept = [last, *kept]
    path.write_bytes(b"".join(kept))


class Timeline(Delegate):
    def emit(self, session_id: str, event_type: str, data: Any = None) -> Any:
        limit = _max_lines_from_env()
        with patched_env(MAX_LINES_ENV, UNBOUNDED):
            event = self._inner.emit(session_id, event_type, data)
        trim_prepending(Path(self._inner.path(session_id)), limit)
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
            trim_prepending(path, limit)
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
    name = "semantic-sn_wf_trim_prepends_compact"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
