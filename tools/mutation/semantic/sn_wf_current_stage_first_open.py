"""After a stage completes, ``currentStage`` moves to the first stage that is not completed, an active one
included: the port reuses its "open stages" helper (``pendingStages(state)[0]``, the one the next-step
hint and the compact decision use), where the original moves it to the first stage whose status is
``pending`` (``keys.find(k => stages[k].status === 'pending')``).  When REVIEW passes while its parallel
partner TEST:2 is still running, the original's ``currentStage`` is RETRO and the port's stays TEST:2.

Pattern: two similar rules ("not completed" vs "pending") that agree whenever no other stage is active.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.state import WorkflowState
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two similar rules agree on the examples"


def complete_stage(state: WorkflowState, stage_key: str, verdict: str, agent: str, now: str) -> None:
    state.get("activeAgents", {}).pop(agent, None)
    entry = state["stages"][stage_key]
    entry["status"] = "completed"
    entry["result"] = verdict
    entry["completedAt"] = now
    first_open = next((k for k, e in state["stages"].items() if e.get("status") != "completed"), None)
    if first_open is not None:
        state["currentStage"] = first_open
    if verdict == "fail":
        state["failCount"] += 1
    elif verdict == "reject":
        state["rejectCount"] += 1


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "complete_stage", complete_stage):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "complete_stage", complete_stage):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_wf_current_stage_first_open"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
