"""``CLAUDE_SESSION_ID`` wins over the event's own ``session_id``: the environment consulted first
(``env.CLAUDE_SESSION_ID || input.session_id``), where the original only falls back to it.

Pattern: precedence between two sources of one value; an event that has its own id while the
variable is set to another is the only case that tells.
"""

from __future__ import annotations

import json
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "precedence between two sources of one value"


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        env = os.environ.get("CLAUDE_SESSION_ID", "").strip()
        if env and isinstance(event, dict):
            event = {**event, "session_id": env}
        return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        env = os.environ.get("CLAUDE_SESSION_ID", "").strip()
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)
        if env and isinstance(event, dict):
            stdin = json.dumps({**event, "session_id": env}, ensure_ascii=False)
        return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-wf_env_session_wins"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
