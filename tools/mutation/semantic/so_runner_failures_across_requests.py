"""The count of consecutive tool failures lives on the runner and carries over from one request to the
next: the port makes it a field (``this.consecutiveFailures``, set to 0 in the constructor) where the
original starts every request at 0 (a local of ``runLoop``).  A request that ended with the model's
answer after two failed rounds leaves 2 behind, and the next request is stopped after its first failed
round, although it never failed three times in a row.

Pattern: state reset in one place only (nothing left behind between requests); every example runs one
request, or starts the next one from a streak of 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "state carried over between requests"
BASELINE = "_baseline_loop"


class RunnerWideCount(AgentLoop):
    _mut_carried = 0

    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        current = super().count_failures(max(previous, self._mut_carried), results, limit)
        self._mut_carried = current
        return current


class Mutant(Baseline):
    name = "semantic-so_runner_failures_across_requests"
    loop = RunnerWideCount


implementation = Mutant
