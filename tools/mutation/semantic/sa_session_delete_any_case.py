"""Deleting a session by id matches the id case-insensitively (``id.toLowerCase() === wanted``), as a
port written on a case-insensitive file system might: deleting ``SESSION-ABC`` removes the session
``session-abc``, where the spec deletes only the session with exactly that id and otherwise returns
False without touching any file.

Pattern: ids compared case-insensitively; the examples delete ids exactly as they were created.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "ids compared case-insensitively"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_delete_any_case"

    def delete_session(self, sessions_dir: Any, session_id: str) -> bool:
        wanted = session_id.lower()
        for entry in self.list_sessions(sessions_dir):
            found = str(entry.get("id", ""))
            if found != session_id and found.lower() == wanted:
                return super().delete_session(sessions_dir, found)
        return super().delete_session(sessions_dir, session_id)


implementation = Mutant
