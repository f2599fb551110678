"""``active-agent.json`` is removed only once the hook has found a stage to complete: the port puts the
cleanup with the stage bookkeeping (after the stage table, the state and the stage key are looked up),
where the original removes it for every agent of the session right after reading the event ("workflow 無關，
所有 agent 都清除").  An agent that finishes no stage (``ot:grader``, an agent of another plugin, a stage
already completed) leaves its record behind, and the session goes on looking as if it still ran.

Pattern: "nothing is left behind" asserted on one branch only: the examples check the file after a
completed stage, whatever its verdict, never after an early exit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "state checked after one branch only"


class Workflow(Delegate):
    def _mut_record(self, event: Any) -> tuple[Path, bytes] | None:
        if not isinstance(event, Mapping):
            return None
        session_id = str(event.get("session_id") or os.environ.get("CLAUDE_SESSION_ID", "")).strip()
        try:
            path = Path(self._inner.paths.active_agent_file(session_id))
            return path, path.read_bytes()
        except (OSError, ValueError):
            return None

    @staticmethod
    def _mut_put_back(record: tuple[Path, bytes] | None, result: str) -> None:
        if record is not None and not result and not record[0].exists():
            record[0].write_bytes(record[1])

    def on_stop(self, event: Any) -> Any:
        record = self._mut_record(event)
        answer = self._inner.on_stop(event)
        self._mut_put_back(record, answer.get("result", ""))
        return answer

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            event = None
        record = self._mut_record(event)
        outcome = self._inner.on_stop_command(stdin)
        try:
            result = json.loads(outcome.stdout).get("result", "")
        except (ValueError, AttributeError):
            result = ""
        self._mut_put_back(record, result)
        return outcome


class Mutant(ReferenceImplementation):
    name = "semantic-si_wf_active_agent_kept_without_stage"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
