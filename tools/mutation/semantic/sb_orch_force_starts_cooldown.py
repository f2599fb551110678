"""``/compact`` (``force_compact``) starts the automatic compaction's cooldown: the port records "last
compaction at this step" in the one place compaction happens, so after a forced compaction the next
automatic one waits ``compact_cooldown_steps`` steps although the history still exceeds the threshold.

Pattern: state changed on one path that should only be changed on another; only a step right after a
forced compaction shows it.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "state changed on the wrong branch"
BASELINE = "_baseline_orchestrator"


class ForceCooldown(Orchestrator):
    async def force_compact(self, history: list[Any], offload_dir: Any, **options: Any) -> Any:
        result = await self.reference.force_compact(history, offload_dir, **options)
        self.last_attempt = self.step
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-sb_orch_force_starts_cooldown"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return ForceCooldown(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
