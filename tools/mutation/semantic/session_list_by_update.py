"""``Session.list`` (and so ``--resume`` without an id) orders sessions by ``updatedAt``, newest first,
where the original keeps the index order: newest *created* first.

Pattern: two rules that agree on the examples; sessions created one after the other and never touched
again sort the same either way, an older session written to later does not.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


class Mutant(ReferenceImplementation):
    name = "semantic-session_list_by_update"

    def list_sessions(self, sessions_dir: Any) -> Any:
        entries = super().list_sessions(sessions_dir)
        return sorted(entries, key=lambda e: str(e.get("updatedAt", "")), reverse=True)

    def continue_session(self, sessions_dir: Any) -> Any:
        entries = self.list_sessions(sessions_dir)
        if not entries:
            return None
        return self.find_session(str(entries[0]["id"]), sessions_dir)


implementation = Mutant
