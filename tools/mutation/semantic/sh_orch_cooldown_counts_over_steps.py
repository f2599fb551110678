"""The compaction cooldown counts only the steps whose history is still over the threshold: the port
advances its step counter where it asks "does this step need a compaction?", so a step whose offload
brought the history under the threshold is not counted, where every ``offloadIfNeeded`` call is a step
of the original's clock.  After a compaction, steps under the threshold stretch the cooldown: the next
step that needs a compaction waits for ``compactCooldownSteps`` steps *that needed one*.

Pattern: one event per step where the data only has steps of one kind (every step of the cooldown
examples reports a history still over the threshold, so both counters agree).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "one event per step"
BASELINE = "_baseline_orchestrator"


class StepsOverThreshold(Delegate):
    """The offload manager seen by the orchestrator: a step whose history is under the threshold is
    taken back off the step counter."""

    def __init__(self, inner: Any, orchestrator: Orchestrator) -> None:
        super().__init__(inner)
        self._mut_orchestrator = orchestrator

    def offload_if_needed(self, messages: list[Any]) -> Any:
        result = self._inner.offload_if_needed(messages)
        if not result.still_exceeds_threshold:
            self._mut_orchestrator.step -= 1
        return result


class CountingOrchestrator(Orchestrator):
    def components(self, offload_dir: Path) -> tuple[Any, Any]:
        manager, compactor = super().components(offload_dir)
        return StepsOverThreshold(manager, self), compactor


class Mutant(ReferenceImplementation):
    name = "semantic-sh_orch_cooldown_counts_over_steps"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return CountingOrchestrator(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
