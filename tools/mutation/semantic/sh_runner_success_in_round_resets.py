"""A round in which one tool call succeeded resets the consecutive-failure count, even when another call
of the round failed in a way that counts: the port asks "did this round fail?" (no call succeeded),
where the original counts a round that has any countable failure (``countable.length > 0 ? previous + 1
: 0``) whatever the other calls did, so a model that keeps misusing one tool while a second call works
is stopped after ``maxConsecutiveToolFailures`` rounds.

Pattern: one event per round where several can happen; every failing round of the examples fails in
all of its calls (one call, or a failure with an execution error).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "one event per round"
BASELINE = "_baseline_loop"


class SuccessResets(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        if any(not r.is_error for r in results):
            return 0
        return super().count_failures(previous, results, limit)


class Mutant(Baseline):
    name = "semantic-sh_runner_success_in_round_resets"
    loop = SuccessResets


implementation = Mutant
