"""A round whose errors are all of the kind that does not count (an execution error: a wrong path, a
failing test) leaves the consecutive-failure count as it was: the port reads "only countable failures
are counted" as "other failures do not touch the counter" and writes ``if (countable.length > 0)
failures += 1`` with the reset only for a round without errors, where the original's
``countConsecutiveFailures`` returns 0 for any round without a countable failure.  A model that
alternates a mistyped command with an ordinary failing one is stopped after three mistypes spread over
five rounds, although no two of them were consecutive.

Pattern: "nothing is left behind" asserted after one branch only (the reset after a clean round); no
example has an uncounted failing round between counted ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, counts_as_failure, logger

AREAS = ("agent",)
PATTERN = "state kept after one branch"
BASELINE = "_baseline_loop"


class KeepsCount(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if counts_as_failure(r))
        current = previous + 1 if counted else previous
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-sm_runner_uncounted_round_keeps_count"
    loop = KeepsCount


implementation = Mutant
