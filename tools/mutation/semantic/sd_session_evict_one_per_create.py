"""Creating a session evicts at most one old session: the port writes
``if (sessions.length > max) { const removed = sessions.pop(); deleteFiles(removed) }``, where the
original's ``sessions.splice(MAX_SESSIONS)`` drops every entry past the limit (and their files). After
``SYNAPSE_MAX_SESSIONS`` is lowered, the index stays over the limit and the evicted sessions' files pile up.

Pattern: one event per round where several can happen; every example creates exactly one session past
the limit, so exactly one is evicted either way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session.paths import env_int
from tools.mutation.semantic._support import patched_env

AREAS = ("session",)
PATTERN = "one event per round"


def _indexed(sessions_dir: Any) -> int:
    try:
        data = json.loads((Path(sessions_dir) / "sessions.json").read_text(encoding="utf-8"))
        return len(data["sessions"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


class Mutant(ReferenceImplementation):
    name = "semantic-sd_session_evict_one_per_create"

    def create_session(self, sessions_dir: Any, **kwargs: Any) -> Any:
        limit = env_int("SYNAPSE_MAX_SESSIONS", 100)
        if limit <= 0:
            return super().create_session(sessions_dir, **kwargs)
        # One pop at most: the index may keep as many entries as it already had.
        with patched_env("SYNAPSE_MAX_SESSIONS", str(max(limit, _indexed(sessions_dir)))):
            return super().create_session(sessions_dir, **kwargs)


implementation = Mutant
