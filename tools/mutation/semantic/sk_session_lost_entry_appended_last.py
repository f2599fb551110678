"""A session whose index entry is gone gets it back at the end of the index: the port re-registers the
entry with ``sessions.push(entry)`` ("add it back"), where the reference puts it first, as a session
being written to is the most recent one.  After another process evicted the entry (``SYNAPSE_MAX_SESSIONS``)
or the index was set aside as corrupt, the session that is being used lists last, and ``--continue``
resumes another, older conversation; the next eviction removes the session in use first.

Pattern: order; every example write finds its session's entry in the index.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.session.index import SessionIndex
from tools.mutation.semantic._support import Delegate, SessionMutant, listed_in_index

AREAS = ("session",)
PATTERN = "order"


class Session(Delegate):
    def _mut_write(self, method: str, *args: Any, **kwargs: Any) -> Any:
        sessions_dir = Path(self._inner.history_path).parent
        session_id = self._inner.id
        was_listed = listed_in_index(sessions_dir, session_id)
        outcome = getattr(self._inner, method)(*args, **kwargs)
        if not was_listed and listed_in_index(sessions_dir, session_id):

            def to_the_end(sessions: list[Any]) -> None:
                mine = [e for e in sessions if e.get("id") == session_id]
                sessions[:] = [e for e in sessions if e.get("id") != session_id] + mine

            SessionIndex(sessions_dir).update(to_the_end)
        return outcome

    def append_message(self, message_or_list: Any) -> None:
        self._mut_write("append_message", message_or_list)

    def rewrite_history(self, messages: Any) -> None:
        self._mut_write("rewrite_history", messages)

    def clear(self, **options: Any) -> None:
        self._mut_write("clear", **options)

    def update_usage(self, usage: Any, model: Any = None) -> None:
        self._mut_write("update_usage", usage, model)


class Mutant(SessionMutant):
    name = "semantic-sk_session_lost_entry_appended_last"
    session_class = Session


implementation = Mutant
