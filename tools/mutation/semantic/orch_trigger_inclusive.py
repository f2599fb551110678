"""Compaction also starts when the offload freed exactly ``compactTriggerThreshold`` tokens:
``freed <= trigger`` where the original has ``freed < trigger``.

Pattern: a boundary tested only at one side cannot tell ``<`` from ``<=``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "boundary tested at one side only"
BASELINE = "_baseline_orchestrator"


class InclusiveTrigger(Orchestrator):
    def freed_too_little(self, freed: int) -> bool:
        return freed <= self.settings.compact_trigger_threshold


class Mutant(ReferenceImplementation):
    name = "semantic-orch_trigger_inclusive"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return InclusiveTrigger(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
