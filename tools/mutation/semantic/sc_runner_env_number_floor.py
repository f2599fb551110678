"""``SYNAPSE_MAX_TOOL_ITERATIONS`` is read with ``Math.floor(Number(value))``: the port knows that
``parseInt`` keeps the leading digits of ``"2.9"`` and floors instead, but ``Number`` reads the whole text,
so ``"1e1"`` is 10 and ``"0x10"`` 16 where the original's ``parseInt(value, 10)`` stops at the first
character that is no decimal digit (1 and 0).

Pattern: ``parseInt``-style parsing; every example is a plain decimal, a decimal fraction or a word, on
which both readings agree.
"""

from __future__ import annotations

import math
import os

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "parseInt-style parsing"
BASELINE = "_baseline_loop"


def number_floor(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(int(raw.strip(), 0)) if raw.strip().lower().startswith("0x") else float(raw)
    except ValueError:
        return default
    return math.floor(value) if math.isfinite(value) else default


class NumberLoop(AgentLoop):
    def iteration_limit(self) -> int:
        if self._max_iterations is not None:
            return int(self._max_iterations)
        return number_floor("SYNAPSE_MAX_TOOL_ITERATIONS", 50)


class Mutant(Baseline):
    name = "semantic-sc_runner_env_number_floor"
    loop = NumberLoop


implementation = Mutant
