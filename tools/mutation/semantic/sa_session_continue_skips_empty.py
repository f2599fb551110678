"""``Session.continue()`` resumes the newest session *that has messages*, skipping sessions created and
never written to (a port "helpfully" not resuming an empty conversation); the spec resumes the newest
created session, whatever it holds.

Pattern: two rules agree on the examples: every session the examples create has a history.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_continue_skips_empty"

    def continue_session(self, sessions_dir: Any) -> Any:
        entries = self.list_sessions(sessions_dir)
        for entry in entries:
            if int(entry.get("messageCount") or 0) > 0:
                return self.find_session(str(entry["id"]), sessions_dir)
        return super().continue_session(sessions_dir)


implementation = Mutant
