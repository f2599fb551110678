"""The ``sessions.json`` index: tolerant reads, serialised load-modify-save writes.

Every write holds an inter-process file lock around load, modify and atomic replace, so concurrent
writers (threads, ``Session`` instances or processes) never drop each other's entries.  A corrupt index
reads as empty but is never silently overwritten: the first write moves it aside first.  Numbers must be
finite (``NaN``/``Infinity`` are not JSON and ``JSON.parse`` refuses them), and a number too long to
convert makes the index corrupt like any other unreadable value.

Every writer of a temporary file in the sessions directory (``<target>.tmp-<pid>-<8 hex>``) holds the
lock, so a temporary file found while holding it was left by a killed writer and is removed.  Temporary
files of other tools (``sessions.json.tmp-*``, ``*.jsonl.tmp-*`` in another format) go once they are an
hour old: by then no writer is still busy with them.
"""

from __future__ import annotations

import logging
import math
import os
import re
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from filelock import FileLock

from synapse_ref.session.persistence import TEMP_MARKER, atomic_write_bytes, dumps, loads
from synapse_ref.session.usage import ROUND_KEYS, TOTAL_KEYS

logger = logging.getLogger("synapse.session.index")

INDEX_FILE = "sessions.json"
INDEX_VERSION = "1.0.0"

Entry = dict[str, Any]
T = TypeVar("T")

_OWN_TEMP = re.compile(re.escape(TEMP_MARKER) + r"[0-9]+-[0-9a-f]{8}$")
FOREIGN_TEMP_MAX_AGE = 3600.0


class IndexCorruptError(ValueError):
    """The index file exists but cannot be read or does not have the documented shape."""


def iso_timestamp(epoch_seconds: float) -> str:
    """``Date.prototype.toISOString`` format, e.g. ``2026-01-02T03:04:05.678Z``."""
    moment = datetime.fromtimestamp(epoch_seconds, tz=timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def _is_usage(usage: object) -> bool:
    return (
        isinstance(usage, dict)
        and all(_is_number(usage.get(key)) for key in TOTAL_KEYS)
        and isinstance(usage.get("model"), str)
        and isinstance(usage.get("rounds"), list)
        and all(
            isinstance(r, dict) and all(_is_number(r.get(key)) for key in ROUND_KEYS) for r in usage["rounds"]
        )
        and (usage.get("totalCost") is None or _is_number(usage["totalCost"]))
    )


def _is_entry(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and all(isinstance(entry.get(key), str) for key in ("id", "createdAt", "updatedAt"))
        and _is_number(entry.get("messageCount"))
        and all(isinstance(entry[key], str) for key in ("title", "cwd") if key in entry)
        and ("usage" not in entry or _is_usage(entry["usage"]))
    )


def validate_index(data: object) -> dict[str, Any]:
    """The index if it matches the schema of the original (``SessionsIndexSchema``)."""
    if not (
        isinstance(data, dict)
        and isinstance(data.setdefault("version", INDEX_VERSION), str)
        and isinstance(data.get("updatedAt"), str)
        and isinstance(data.get("sessions"), list)
        and all(_is_entry(entry) for entry in data["sessions"])
    ):
        raise IndexCorruptError
    return data


class SessionIndex:
    """One sessions directory's ``sessions.json``."""

    def __init__(self, sessions_dir: Path) -> None:
        self.path = sessions_dir / INDEX_FILE
        # One reentrant lock object: a rewrite holds it around its own write and the index update.
        self._lock = FileLock(f"{self.path}.lock")
        self._lock_pid = os.getpid()

    def _load_strict(self) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {"version": INDEX_VERSION, "sessions": []}
        except OSError as exc:
            raise IndexCorruptError(exc) from exc
        try:
            data = loads(raw.decode("utf-8"))
        except ValueError as exc:  # invalid UTF-8, not JSON, nested too deeply, a number too long
            raise IndexCorruptError(exc) from exc
        return validate_index(data)

    def entries(self) -> list[Entry]:
        """The sessions, newest first; ``[]`` (with a warning) when the index is corrupt."""
        try:
            return list(self._load_strict()["sessions"])
        except IndexCorruptError as exc:
            logger.warning("Failed to load sessions index %s: %s", self.path, exc)
            return []

    def find(self, session_id: str) -> Entry | None:
        return next((e for e in self.entries() if e.get("id") == session_id), None)

    def update(self, mutate: Callable[[list[Entry]], T]) -> T:
        """Apply ``mutate`` to the entry list under the lock and save the result atomically."""
        # Taking the lock creates the sessions directory (and its parents) on first use.
        with self.locked():
            try:
                index = self._load_strict()
            except IndexCorruptError as exc:
                self._set_aside(exc)
                index = {"version": INDEX_VERSION, "sessions": []}
            sessions: list[Entry] = index["sessions"]
            result = mutate(sessions)
            index["sessions"] = sessions
            index["updatedAt"] = iso_timestamp(time.time())
            atomic_write_bytes(self.path, dumps(index, indent=True))
            self._remove_stale_temps()
            return result

    def remove(self, session_id: str) -> list[tuple[int, Entry]]:
        """Take every entry of ``session_id`` out of the index (one atomic save under the lock) and return
        them with their positions, for :meth:`restore`.  An index without such an entry, or one that
        cannot be read, is left as it is (not even rewritten) and ``[]`` is returned."""
        with self.locked():
            if self.find(session_id) is None:
                return []

            def take(sessions: list[Entry]) -> list[tuple[int, Entry]]:
                taken = [(i, entry) for i, entry in enumerate(sessions) if entry.get("id") == session_id]
                sessions[:] = [entry for entry in sessions if entry.get("id") != session_id]
                return taken

            return self.update(take)

    def restore(self, taken: list[tuple[int, Entry]]) -> None:
        """Put entries that :meth:`remove` took back where they were (as far as the list still reaches)."""

        def put_back(sessions: list[Entry]) -> None:
            for position, entry in taken:
                sessions.insert(position, entry)

        self.update(put_back)

    def locked(self) -> FileLock:
        """The index's (reentrant) lock, for a write that must not interleave with index updates."""
        if self._lock_pid != os.getpid():  # a forked child may not use its parent's lock object
            self._lock, self._lock_pid = FileLock(f"{self.path}.lock"), os.getpid()
        return self._lock

    def _remove_stale_temps(self) -> None:
        """Called with the lock held; see the module docstring for which files are stale."""
        now = time.time()
        prefixes = (f"{INDEX_FILE}{TEMP_MARKER}", f".jsonl{TEMP_MARKER}")
        try:
            candidates = [
                entry
                for entry in os.scandir(self.path.parent)
                if TEMP_MARKER in entry.name and any(prefix in entry.name for prefix in prefixes)
            ]
        except OSError:
            return
        for entry in candidates:
            try:
                own = _OWN_TEMP.search(entry.name) is not None
                if own or now - entry.stat(follow_symlinks=False).st_mtime > FOREIGN_TEMP_MAX_AGE:
                    os.unlink(entry.path)
                    logger.warning("Removed a temporary file left by an interrupted write: %s", entry.path)
            except OSError:
                continue

    def _set_aside(self, problem: IndexCorruptError) -> None:
        stamp = datetime.now(tz=timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        backup = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        os.replace(self.path, backup)
        logger.warning(
            "Sessions index %s was corrupt (%s); kept it as %s and started a new index",
            self.path,
            problem,
            backup,
        )
