"""Deleting a session removes only the first index entry of its id: the port writes
``sessions.splice(sessions.findIndex(s => s.id === id), 1)`` ("remove the entry"), where the original's
``removeFromIndex`` keeps every entry whose id differs (``filter(s => s.id !== id)``).  An index in which
the id appears twice (written again by another tool or an older version, merged by a sync client) still
lists the deleted session, whose files are gone: ``Session.find`` resumes an empty conversation under the
deleted id.

Pattern: one event per round where several can happen; every example index holds each id once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session.index import INDEX_FILE, SessionIndex
from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "one event per round"


def _later_duplicates(sessions_dir: Path, session_id: str) -> list[tuple[int, Any]]:
    try:
        entries = json.loads((sessions_dir / INDEX_FILE).read_text(encoding="utf-8"))["sessions"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    matches = [(i, e) for i, e in enumerate(entries) if isinstance(e, dict) and e.get("id") == session_id]
    return [(i - 1, entry) for i, entry in matches[1:]]


def _put_back(sessions_dir: Path, kept: list[tuple[int, Any]]) -> None:
    if kept:
        SessionIndex(sessions_dir).restore(kept)


class Session(Delegate):
    def delete(self) -> None:
        sessions_dir = Path(self._inner.history_path).parent
        kept = _later_duplicates(sessions_dir, self._inner.id)
        self._inner.delete()
        _put_back(sessions_dir, kept)


class Mutant(SessionMutant):
    name = "semantic-si_session_delete_first_entry"
    session_class = Session

    def delete_session(self, sessions_dir: Any, session_id: str) -> bool:
        kept = _later_duplicates(Path(sessions_dir), session_id)
        deleted = ReferenceImplementation.delete_session(self, sessions_dir, session_id)
        _put_back(Path(sessions_dir), kept)
        return deleted


implementation = Mutant
