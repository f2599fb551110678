"""The offload scans the first ``round(len * scanRatio)`` messages instead of ``floor(len * scanRatio)``:
``Math.round`` where the original has ``Math.floor``, an easy slip when porting a ratio.

Pattern: a ratio applied to a length that is always a whole multiple (10 messages at 0.5) cannot tell
floor from round; 5 messages at 0.5 (2.5) can.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "two rules agree on the examples (ratio on whole multiples)"


class Manager(Delegate):
    def __init__(self, build: Any, scan_ratio: float) -> None:
        super().__init__(build(scan_ratio))
        self._mut_build = build
        self._mut_ratio = scan_ratio

    def offload_if_needed(self, messages: list[Any]) -> Any:
        count = len(messages)
        wanted = math.floor(count * self._mut_ratio + 0.5)
        if count == 0 or wanted == math.floor(count * self._mut_ratio):
            return self._inner.offload_if_needed(messages)
        # A manager whose floor lands where round does: the reference code with the buggy scan end.
        return self._mut_build((wanted + 0.5) / count).offload_if_needed(messages)


class Mutant(ReferenceImplementation):
    name = "semantic-ctx_scan_ratio_round"

    def context_manager(self, storage: Any, *, scan_ratio: float, **options: Any) -> Any:
        def build(ratio: float) -> Any:
            return super(Mutant, self).context_manager(storage, scan_ratio=ratio, **options)

        return Manager(build, scan_ratio)


implementation = Mutant
