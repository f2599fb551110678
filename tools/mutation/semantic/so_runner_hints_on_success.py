"""The consecutive-failure guard reads the usage hints of every tool result, not only of the failed
ones: the port filters the round's results by ``countsAsFailure`` alone ("a usage message means the
model is misusing a tool") and forgets the original's first filter, ``returnValue.isError``.  A
successful call whose output is a usage text, which is exactly what the Bash tool's own hint asks for
(``run `rg --help` to learn usage``), then counts as a failure instead of ending the streak: the model
that follows the hint after two mistakes is stopped on its third round.

Pattern: a rule checked only on one kind of input; every example success prints no usage text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, counts_as_failure, logger

AREAS = ("agent",)
PATTERN = "a filter dropped (successes read as failures)"
BASELINE = "_baseline_loop"


class HintsEverywhere(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        read = [r for r in results if r.is_error or counts_as_failure(r)]
        if not read:
            return 0
        counted = sum(1 for r in read if counts_as_failure(r))
        current = previous + 1 if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(read), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-so_runner_hints_on_success"
    loop = HintsEverywhere


implementation = Mutant
