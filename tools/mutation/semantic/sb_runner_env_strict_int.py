"""``SYNAPSE_MAX_TOOL_ITERATIONS`` and ``SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES`` are parsed strictly
(``int(value)``, ``Number(value)``): ``"2.5"`` is not a number to the port and falls back to the default,
where the original's ``parseInt`` reads its leading digits (2).

Pattern: ``parseInt("1.5")``-style parsing; the examples give whole numbers, an empty value and a word.
"""

from __future__ import annotations

import os

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "parseInt-style parsing"
BASELINE = "_baseline_loop"


def strict_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        return int(raw)
    except ValueError:
        return default


class StrictLoop(AgentLoop):
    def iteration_limit(self) -> int:
        if self._max_iterations is not None:
            return int(self._max_iterations)
        return strict_int("SYNAPSE_MAX_TOOL_ITERATIONS", 50)

    def failure_limit(self) -> int:
        if self._max_failures is not None:
            return int(self._max_failures)
        value = strict_int("SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES", 3)
        return value if value > 0 else 3


class Mutant(Baseline):
    name = "semantic-sb_runner_env_strict_int"
    loop = StrictLoop


implementation = Mutant
