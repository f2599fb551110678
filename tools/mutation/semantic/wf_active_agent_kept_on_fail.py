"""The hook removes ``active-agent.json`` only when the stage passed: the cleanup written at the end of
the pass branch, next to "next stage" hint, where the original removes it for every verdict.

Pattern: "nothing is left behind" asserted after one branch only (a passing stage); a failed or
rejected stage leaves the marker of an agent that is no longer running.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "state checked after one branch only"


class Workflow(Delegate):
    def __init__(self, inner: Any, root: Path) -> None:
        super().__init__(inner)
        self._mut_root = Path(root)

    def on_stop(self, event: Any) -> Any:
        return self._mut_run(event, lambda: self._inner.on_stop(event), lambda a: a.get("result", ""))

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)

        def text(outcome: Any) -> str:
            try:
                return str(json.loads(outcome.stdout).get("result", ""))
            except (ValueError, AttributeError):
                return ""

        return self._mut_run(event, lambda: self._inner.on_stop_command(stdin), text)

    def _mut_run(self, event: Any, call: Any, result_text: Any) -> Any:
        session = str(event.get("session_id") or "").strip() if isinstance(event, dict) else ""
        marker = self._mut_root / "sessions" / session / "active-agent.json"
        saved = marker.read_bytes() if session and marker.is_file() else None
        answer = call()
        if saved is not None and not marker.exists() and not result_text(answer).startswith("✅"):
            marker.write_bytes(saved)
        return answer


class Mutant(ReferenceImplementation):
    name = "semantic-wf_active_agent_kept_on_fail"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock), root)


implementation = Mutant
