"""The "delegate in parallel" hint gathers every open stage of the parallel group, wherever it stands in
the workflow: the port writes ``pending.filter(k => members.includes(base(k)))`` ("the group's open
members"), where the original collects the consecutive run of open members starting at the current
stage and stops at the first stage outside the group.  In the ``full`` workflow, once REVIEW has passed
while its partner TEST:2 is still to run, the port tells the main agent to start QA and E2E in parallel
(``並行委派 🏁 QA + 🌐 E2E``) although TEST:2 comes first; the original says to delegate the tester.

Pattern: the consecutive run vs every match; in the examples the group's open members are always the
first open stages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.registry import PARALLEL_GROUPS, STAGES, WORKFLOWS, base_stage
from synapse_ref.workflow.state import pending_stages
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "every match vs the consecutive run"


def hint_members_anywhere(state: Mapping[str, Any]) -> str | None:
    pending = pending_stages(state)
    if not pending:
        return None
    active = list((state.get("activeAgents") or {}).keys())
    if active:
        return f"等待並行 agent 完成：{', '.join(active)}"
    workflow = WORKFLOWS.get(str(state.get("workflowType")))
    for group in workflow.parallel_groups if workflow else ():
        members = PARALLEL_GROUPS[group]
        run = [key for key in pending if base_stage(key) in members]
        if len(run) >= 2:
            titles = (f"{STAGES[base_stage(k)].emoji} {STAGES[base_stage(k)].label}" for k in run)
            return "並行委派 " + " + ".join(titles)
    definition = STAGES[base_stage(pending[0])]
    return f"委派 {definition.emoji} {definition.agent}（{definition.label}）"


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "next_stage_hint", hint_members_anywhere):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "next_stage_hint", hint_members_anywhere):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_wf_parallel_hint_members_anywhere"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
