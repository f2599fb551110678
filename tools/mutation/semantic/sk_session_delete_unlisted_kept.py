"""Deleting a session that the index does not list deletes nothing: the port answers ``false`` as soon as
``removeFromIndex`` finds no entry ("nothing to delete"), where the reference removes the session's files
whether or not it is listed.  A session whose entry is gone while its files stay (a process killed
between the two steps of an earlier deletion, an index set aside as corrupt, an entry evicted by another
process) can then never be deleted: its history and offloaded files stay on disk for good.

Pattern: two sources of one fact (the index and the files); every example session is both listed and
on disk, or neither.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session.index import INDEX_FILE
from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "two sources of one fact"


def _listed(sessions_dir: Path, session_id: str) -> bool:
    """Read straight from the file, so the check itself logs nothing and sets no corrupt index aside."""
    try:
        entries = json.loads((sessions_dir / INDEX_FILE).read_text(encoding="utf-8"))["sessions"]
        return any(isinstance(e, dict) and e.get("id") == session_id for e in entries)
    except (OSError, ValueError, KeyError, TypeError):
        return False


class Session(Delegate):
    def delete(self) -> None:
        if _listed(Path(self._inner.history_path).parent, self._inner.id):
            self._inner.delete()


class Mutant(SessionMutant):
    name = "semantic-sk_session_delete_unlisted_kept"
    session_class = Session

    def delete_session(self, sessions_dir: Any, session_id: str) -> bool:
        if not _listed(Path(sessions_dir), session_id):
            return False
        return ReferenceImplementation.delete_session(self, sessions_dir, session_id)


implementation = Mutant
