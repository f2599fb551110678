"""The orchestrator decides that the history is still too long on its own, with ``currentTokens >
offloadThreshold``: the port does not carry the offload's ``stillExceedsThreshold`` through and compares
the counts again, with the strict comparison a reader expects of "exceeds".  The offload's rule (the
original's) is ``currentTokens >= offloadThreshold``, as its start is: a history that sits exactly on the
threshold after the offload, and freed too little, is compacted by the original and never by the port.

Pattern: a boundary tested on one side; every example report that should compact is well over the
threshold.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "boundary tested on one side"
BASELINE = "_baseline_orchestrator"


class StrictOrchestrator(Orchestrator):
    def still_over(self, offload: Any) -> bool:
        return int(offload.current_tokens) > self.settings.offload_threshold


class Mutant(ReferenceImplementation):
    name = "semantic-so_orch_over_threshold_strict"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return StrictOrchestrator(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
