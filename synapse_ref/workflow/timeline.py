"""The per-session timeline: an append-only JSONL log of workflow events.

Each line is ``{"ts", "type", "category", "label", ...data}``; ``type`` must be registered in
``TIMELINE_EVENTS``.  The log is bounded: once it holds more than ``SYNAPSE_TIMELINE_MAX_LINES`` lines
(read when used; default 2000) it is rewritten atomically with the newest of them, keeping
the latest ``session:compact`` event even when it is older than those (the compact suggestion's cooldown
depends on it).

Two ways to read: ``query``/``latest`` skip lines that are not events (a dashboard should show what it
can), while ``events(strict=True)`` raises :class:`TimelineCorruptError`, for decisions that must not be
made on a damaged log.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from filelock import FileLock

from synapse_ref.context.settings import parse_env_positive_int
from synapse_ref.js_text import json_parse, trim
from synapse_ref.workflow.paths import WorkflowPaths, atomic_write_bytes, remove_interrupted_writes
from synapse_ref.workflow.registry import TIMELINE_EVENTS

Clock = Callable[[], datetime]
TimelineEvent = dict[str, Any]

MAX_LINES_ENV = "SYNAPSE_TIMELINE_MAX_LINES"
DEFAULT_MAX_LINES = 2000
RESERVED_KEYS = frozenset({"ts", "type", "category", "label"})
BOM = codecs.BOM_UTF8
"""A byte-order mark opening the log is no part of its first event: the original trims the text it reads
(``readFileSync(...).trim()``), and JavaScript's ``trim()`` removes the mark."""


class UnknownTimelineEventError(ValueError):
    """Raised for an event type missing from the registry (message as the original's)."""

    def __init__(self, event_type: str) -> None:
        super().__init__(f"未知的 timeline 事件類型：{event_type}")


class TimelineCorruptError(ValueError):
    """The timeline (named by the message) is not UTF-8 text of JSON event objects."""


def iso_timestamp(moment: datetime) -> str:
    """``2026-03-01T07:43:00.123Z``, the format the original writes (``moment`` is aware)."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _max_lines_from_env() -> int:
    return parse_env_positive_int(os.environ.get(MAX_LINES_ENV), DEFAULT_MAX_LINES)


class Timeline:
    """Emits and reads the timeline of any session below a root."""

    def __init__(self, paths: WorkflowPaths, clock: Clock) -> None:
        self._paths = paths
        self.clock = clock

    def path(self, session_id: str) -> Path:
        return self._paths.timeline_file(session_id)

    def emit(self, session_id: str, event_type: str, data: Mapping[str, Any] | None = None) -> TimelineEvent:
        """Append one event; unknown types and data that would overwrite the base fields are refused."""
        definition = TIMELINE_EVENTS.get(event_type)
        if definition is None:
            raise UnknownTimelineEventError(event_type)
        clash = RESERVED_KEYS.intersection(data or {})
        if clash:
            raise ValueError(f"timeline event data may not set {sorted(clash)}")
        event: TimelineEvent = {
            "ts": iso_timestamp(self.clock()),
            "type": event_type,
            "category": definition["category"],
            "label": definition["label"],
            **(data or {}),
        }
        line = json.dumps(event, ensure_ascii=False) + "\n"
        path = self.path(session_id)
        with FileLock(str(path.parent / "timeline.jsonl.lock")):  # creates the session directory
            remove_interrupted_writes(path)  # a trim killed before its rename
            with path.open("a+b") as handle:
                if handle.seek(0, os.SEEK_END) > 0:
                    handle.seek(-1, os.SEEK_END)
                    if handle.read(1) != b"\n":
                        line = "\n" + line  # a torn last line must not swallow this event
                handle.write(line.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            self._trim(path)
        return event

    def events(self, session_id: str, *, strict: bool = False) -> list[TimelineEvent]:
        """Every event in file order.  A missing log is empty; other read errors propagate."""
        path = self.path(session_id)
        try:
            raw = path.read_bytes().removeprefix(BOM)
        except FileNotFoundError:
            return []
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if strict:
                raise TimelineCorruptError(str(path)) from exc
            text = raw.decode("utf-8", errors="replace")
        found: list[TimelineEvent] = []
        for line in self._lines(text):
            if not trim(line):  # blank as JavaScript's trim() sees it: a BOM is, U+001C to U+001F are not
                continue
            event = _parse(line)
            if event is None:
                if strict:
                    raise TimelineCorruptError(str(path))
                continue
            found.append(event)
        return found

    @staticmethod
    def _lines(text: str) -> list[str]:
        """At "\n" only, as the original splits: JSON keeps U+2028, U+0085 and the like raw inside a
        string, and ``str.splitlines`` would cut such an event in two halves that are no JSON."""
        return text.split("\n")

    def query(
        self,
        session_id: str,
        *,
        event_type: str | None = None,
        category: str | None = None,
        limit: int | None = None,
    ) -> list[TimelineEvent]:
        """Matching events in file order, skipping damaged lines; ``limit`` keeps the newest ones."""
        try:
            found = self.events(session_id)
        except OSError:
            return []
        found = [
            e
            for e in found
            if (event_type is None or e["type"] == event_type)
            and (category is None or e.get("category") == category)
        ]
        return found[-limit:] if limit else found

    def latest(self, session_id: str, event_type: str) -> TimelineEvent | None:
        matches = self.query(session_id, event_type=event_type)
        return matches[-1] if matches else None

    def _trim(self, path: Path) -> None:
        max_lines = _max_lines_from_env()
        lines = trim_lines(path.read_bytes().removeprefix(BOM))
        if len(lines) <= max_lines:
            return
        kept = lines[-max_lines:]
        dropped = lines[:-max_lines]
        last_compact = next((ln for ln in reversed(dropped) if _type_of(ln) == "session:compact"), None)
        if last_compact is not None and not any(_type_of(ln) == "session:compact" for ln in kept):
            kept = [last_compact, *kept[1:]]
        atomic_write_bytes(path, b"".join(kept))


def trim_lines(raw: bytes) -> list[bytes]:
    """The lines a trim counts and keeps, each ending in its newline, as the original counts them
    (``content.trim().split('\\n').filter(Boolean)``): split at "\\n" only, so a carriage return inside a
    damaged line ends no line, and without the empty lines, which count against no limit."""
    return [line + b"\n" for line in raw.split(b"\n") if line]


def _parse(line: str) -> TimelineEvent | None:
    """The event on one line, or None: as ``JSON.parse`` reads it, so ``NaN`` or ``Infinity`` (which
    ``json.loads`` would take) make the line no JSON, and so no event."""
    try:
        event = json_parse(line)
    except ValueError:
        return None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return None
    return event


def _type_of(line: bytes) -> str | None:
    event = _parse(line.decode("utf-8", errors="replace"))
    return event["type"] if event is not None else None
