"""``Session.find(id)`` reads the index into a map keyed by id (``new Map(sessions.map(s => [s.id, s]))``,
``{e["id"]: e for e in sessions}``, "look-ups by id should be O(1)"), so when an id appears twice the
*last* entry wins, where the original's ``sessions.find(s => s.id === id)`` takes the first one, the
entry every write moves to the front.  A session listed twice is resumed with the stale copy's title, count
and usage.

Pattern: keeping the first vs the last of duplicates; every example index holds each id once.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session.index import SessionIndex
from tools.mutation.semantic._support import swapped

AREAS = ("session",)
PATTERN = "keeping the first vs the last of duplicates"


def _find_last(index: SessionIndex, session_id: str) -> Any:
    by_id = {entry.get("id"): entry for entry in index.entries()}
    return by_id.get(session_id)


class Mutant(ReferenceImplementation):
    name = "semantic-si_session_find_last_entry"

    def find_session(self, session_id: str, sessions_dir: Any, **options: Any) -> Any:
        with swapped(SessionIndex, "find", _find_last):
            return super().find_session(session_id, sessions_dir, **options)


implementation = Mutant
