"""An event whose ``session_id`` is the empty string does not fall back to ``CLAUDE_SESSION_ID``: the
port writes ``input.session_id ?? process.env.CLAUDE_SESSION_ID``, so only a missing (or null) id is
replaced, and a hook runner that sends ``"session_id": ""`` gets an empty result.

Pattern: empty-string vs missing value; the examples only ever leave the field out.
"""

from __future__ import annotations

import json
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, patched_env

AREAS = ("workflow",)
PATTERN = "empty string vs missing value"


def nullish_env(event: Any) -> str | None:
    """The environment as the mutant sees it: unset when the event carries an id, even an empty one."""
    if isinstance(event, dict) and event.get("session_id") is not None:
        return ""
    return os.environ.get("CLAUDE_SESSION_ID")


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with patched_env("CLAUDE_SESSION_ID", nullish_env(event)):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)
        with patched_env("CLAUDE_SESSION_ID", nullish_env(event)):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sb_wf_session_id_nullish"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
