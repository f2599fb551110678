"""A failed compaction attempt starts no cooldown: the cooldown step is recorded only once the compactor
reports success, reading "after a compaction, wait N steps" literally.

Pattern: "nothing is left behind" / state checked after one branch only; the cooldown must follow an
attempt of any outcome, or a failing model is asked again at every step.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "state checked after one branch only"
BASELINE = "_baseline_orchestrator"


class SuccessOnlyCooldown(Orchestrator):
    def record_attempt(self, result: Any) -> None:
        if result.success:
            self.last_attempt = self.step


class Mutant(ReferenceImplementation):
    name = "semantic-orch_cooldown_on_success_only"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return SuccessOnlyCooldown(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
