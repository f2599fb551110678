"""The compact cooldown counts the stages completed since the *first* ``session:compact`` event (a
``find`` where the original looks for the latest one).

Pattern: one event per round; a timeline with a single compaction cannot tell first from latest.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._cooldown import CooldownWorkflow

AREAS = ("workflow",)
PATTERN = "one event per round"


class Workflow(CooldownWorkflow):
    first_compact = True


class Mutant(ReferenceImplementation):
    name = "semantic-wf_first_compact_event"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
