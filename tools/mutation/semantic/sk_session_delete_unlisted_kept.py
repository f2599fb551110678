"""Deleting a session that the index does not list deletes nothing: the port answers ``false`` as soon as
``removeFromIndex`` finds no entry ("nothing to delete"), where the reference removes the session's files
whether or not it is listed.  A session whose entry is gone while its files stay (a process killed
between the two steps of an earlier deletion, an index set aside as corrupt, an entry evicted by another
process) can then never be deleted: its history and offloaded files stay on disk for good.

Pattern: two sources of one fact (the index and the files); every example session is both listed and
on disk, or neither.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, SessionMutant, listed_in_index

AREAS = ("session",)
PATTERN = "two sources of one fact"


class Session(Delegate):
    def delete(self) -> None:
        if listed_in_index(Path(self._inner.history_path).parent, self._inner.id):
            self._inner.delete()


class Mutant(SessionMutant):
    name = "semantic-sk_session_delete_unlisted_kept"
    session_class = Session

    def delete_session(self, sessions_dir: Any, session_id: str) -> bool:
        if not listed_in_index(Path(sessions_dir), session_id):
            return False
        return ReferenceImplementation.delete_session(self, sessions_dir, session_id)


implementation = Mutant
