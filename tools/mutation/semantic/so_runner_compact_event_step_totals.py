"""The ``compact`` event of an automatic compaction reports the whole step: the port adds what the
step's offload freed, so ``previousTokens`` is the history before the offload and ``freedTokens`` both
savings ("the context went from X to Y this step"), where the original reports the compaction's own
result (``buildCompactPayload(compactResult)``), whose ``previousTokens`` is the offloaded history.  A
status line that adds the two events counts the offload twice.

Pattern: two sources of one value (the offload's and the compaction's counts); the only example step
that offloads and compacts checks the event's figures against each other, never against the history.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "two sources of one value"
BASELINE = "_baseline_loop"


class StepTotals(AgentLoop):
    _mut_offload_freed = 0

    async def _offload(self) -> None:
        self._mut_offload_freed = 0
        try:
            await super()._offload()
        finally:
            self._mut_offload_freed = 0

    def _emit(self, event: str, payload: dict[str, Any]) -> None:
        if event == "offload":
            self._mut_offload_freed = int(payload["freedTokens"])
        elif event == "compact" and self._mut_offload_freed:
            freed = self._mut_offload_freed
            payload = {
                **payload,
                "previousTokens": payload["previousTokens"] + freed,
                "freedTokens": payload["freedTokens"] + freed,
            }
        super()._emit(event, payload)


class Mutant(Baseline):
    name = "semantic-so_runner_compact_event_step_totals"
    loop = StepTotals


implementation = Mutant
