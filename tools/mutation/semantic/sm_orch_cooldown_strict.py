"""The compaction cooldown must be *exceeded*: the port tests ``currentStep - lastCompactAttemptStep >
compactCooldownSteps`` ("more than N steps since the last attempt"), where the original's
``shouldAttemptCompact`` allows a new attempt once N steps have passed (``>=``).  With the default
cooldown of 5, a history that stays over the threshold is compacted at steps 1, 7, 13 instead of 1, 6,
11: one more step each time with a context the model may already refuse.

Pattern: ``>`` vs ``>=`` on a window; an example that only checks "no compaction during the cooldown"
and "a compaction long after" agrees with both.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "boundary tested at one side only"
BASELINE = "_baseline_orchestrator"


class StrictCooldown(Orchestrator):
    def cooldown_over(self) -> bool:
        return self.step - self.last_attempt > self.settings.compact_cooldown_steps


class Mutant(ReferenceImplementation):
    name = "semantic-sm_orch_cooldown_strict"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return StrictCooldown(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
