"""``Session.continue()`` resumes the entry with the latest ``createdAt`` (the port reads "the most recent
session" as ``max(entries, key=createdAt)``), where the original takes the first entry of the index,
which every write moves to the front. A session whose entry was registered again (it had vanished from
``sessions.json`` and was written to) is the front entry but not the latest created one.

Pattern: sort by one key vs another when the data agree; in every example the front entry is also the
one created last.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "sort by one key vs another"


class Mutant(ReferenceImplementation):
    name = "semantic-sd_session_continue_by_created"

    def continue_session(self, sessions_dir: Any) -> Any:
        entries = [e for e in self.list_sessions(sessions_dir) if isinstance(e.get("createdAt"), str)]
        if not entries:
            return super().continue_session(sessions_dir)
        latest = max(entries, key=lambda e: str(e["createdAt"]))
        return self.find_session(str(latest["id"]), sessions_dir)


implementation = Mutant
