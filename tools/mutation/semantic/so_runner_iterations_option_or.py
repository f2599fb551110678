"""An explicit iteration limit of 0 falls through to the environment: the port writes
``options.maxIterations || envLimit`` (Python's ``max_iterations or env_limit``), where the original
takes the option as given (``options.maxIterations ?? default``).  A runner made with no iterations at
all (a dry run that only records the request, a test harness) asks the model fifty times instead of
stopping at once.

Pattern: a default applied when the value is 0 (``||`` for ``??``); every example limit given when the
runner is created is positive.
"""

from __future__ import annotations

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, env_int

AREAS = ("agent",)
PATTERN = "default applied when the value is 0"
BASELINE = "_baseline_loop"


class ZeroFallsThrough(AgentLoop):
    def iteration_limit(self) -> int:
        return self._max_iterations or env_int("SYNAPSE_MAX_TOOL_ITERATIONS", 50)


class Mutant(Baseline):
    name = "semantic-so_runner_iterations_option_or"
    loop = ZeroFallsThrough


implementation = Mutant
