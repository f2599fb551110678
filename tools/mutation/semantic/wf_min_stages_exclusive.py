"""The compact cooldown needs *more than* ``minStagesSinceCompact`` completed stages since the last
compaction (``since > min``); the original is satisfied with exactly ``min`` (``since >= min``).

Pattern: a boundary tested only at one side.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._cooldown import CooldownWorkflow

AREAS = ("workflow",)
PATTERN = "boundary tested at one side only"


class Workflow(CooldownWorkflow):
    inclusive = True


class Mutant(ReferenceImplementation):
    name = "semantic-wf_min_stages_exclusive"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
