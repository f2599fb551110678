"""A ``TEST`` stage's mode is told by its key: the port writes ``mode: key === 'TEST' ? 'spec' : 'verify'``
(the first test stage writes the specification, its repeat ``TEST:2`` verifies), where the original
asks whether a ``DEV`` stage comes before it.  Both agree on every template that opens with a test stage
(``standard``, ``full``, ``tdd``, ``refactor``, ...), and disagree on ``debug`` (``DEBUG``, ``DEV``,
``TEST``): its only test stage runs after the fix and must verify it, not write a specification.

Pattern: two rules agree on the examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import state as state_module
from synapse_ref.workflow.registry import base_stage
from synapse_ref.workflow.state import WorkflowStore, new_state
from tools.mutation.semantic._support import swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def mode_by_key(session_id: str, workflow_type: str, stages: Sequence[str], now: str) -> dict[str, Any]:
    state = new_state(session_id, workflow_type, stages, now)
    for key, entry in state["stages"].items():
        if base_stage(key) == "TEST":
            entry["mode"] = "spec" if key == "TEST" else "verify"
    return state


class Store(WorkflowStore):
    def init(self, session_id: str, workflow_type: str, stages: Sequence[str] | None = None) -> Any:
        with swapped(state_module, "new_state", mode_by_key):
            return super().init(session_id, workflow_type, stages)


class Mutant(ReferenceImplementation):
    name = "semantic-sk_wf_test_mode_by_repeat"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        workflow: Any = super().staged_workflow(root, clock=clock)
        workflow.state = Store(workflow.paths, clock)
        return workflow


implementation = Mutant
