"""After a stage completes, ``currentStage`` moves to the first pending stage *after* the completed one
(``keys.slice(keys.indexOf(stageKey) + 1).find(isPending)``, "the next stage"), where the original takes
the first pending stage of the whole workflow.  When a later stage finishes while an earlier one still
waits (the second TEST of a repeated stage, a parallel member finishing first), ``currentStage`` skips the
waiting stage.

Pattern: two rules agree on the examples (stages finish in workflow order, so the next pending stage is
the first pending one).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def complete_stage(state: Any, stage_key: str, verdict: str, agent: str, now: str) -> None:
    state.get("activeAgents", {}).pop(agent, None)
    entry = state["stages"][stage_key]
    entry["status"] = "completed"
    entry["result"] = verdict
    entry["completedAt"] = now
    keys = list(state["stages"])
    later = keys[keys.index(stage_key) + 1 :]
    next_pending = next((k for k in later if state["stages"][k].get("status") == "pending"), None)
    if next_pending is not None:
        state["currentStage"] = next_pending
    if verdict == "fail":
        state["failCount"] += 1
    elif verdict == "reject":
        state["rejectCount"] += 1


def _next_after() -> Any:
    return swapped(on_stop, "complete_stage", complete_stage)


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _next_after():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _next_after():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_current_stage_after_key"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
