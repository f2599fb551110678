"""The consecutive-failure guard counts every failing tool result, not every failing round: a counter
incremented inside the per-result loop instead of once after it.

Pattern: one event per round; a round with two countable failures is the only case that tells (three
rounds of one failure each stop at the same point under both rules).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, counts_as_failure

AREAS = ("agent",)
PATTERN = "one event per round"
BASELINE = "_baseline_loop"
logger = logging.getLogger("synapse.agent")


class PerResult(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if counts_as_failure(r))
        current = previous + counted if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-runner_failures_per_result"
    loop = PerResult


implementation = Mutant
