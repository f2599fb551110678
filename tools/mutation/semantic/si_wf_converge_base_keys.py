"""A parallel group counts as converged when the stages *named* by the group are completed: the port looks
each member up by its name (``members.every(m => stages[m]?.status === "completed")``), where the original
takes every key of the workflow whose base stage is a member (``TEST`` and ``TEST:2`` alike).  In a
standard workflow the first ``TEST`` (the spec round) was completed long before, so the review passing
while ``TEST:2`` still runs is announced as ``🔄 並行群組 quality 全部完成`` and a ``parallel:converge``
event is recorded too early.

Pattern: two rules agree on the examples: the examples close a group with its last numbered key, where
both readings see every member completed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.registry import PARALLEL_GROUPS, WORKFLOWS, base_stage
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def _converged_by_name(state: Mapping[str, Any], stage_key: str) -> str | None:
    workflow = WORKFLOWS.get(str(state.get("workflowType")))
    stages: Mapping[str, Any] = state["stages"]
    for group in workflow.parallel_groups if workflow else ():
        members = PARALLEL_GROUPS[group]
        if base_stage(stage_key) not in members:
            continue
        named = [m for m in members if m in stages]
        if named and all(stages[m].get("status") == "completed" for m in named):
            return group
    return None


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "_converged_group", _converged_by_name):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "_converged_group", _converged_by_name):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-si_wf_converge_base_keys"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
