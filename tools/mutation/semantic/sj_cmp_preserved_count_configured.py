"""``preservedCount`` reports the configured ``preserveCount`` (or the whole history when it is shorter),
not the number of messages actually kept: the port fills the result from the setting it split by,
forgetting that the split moves earlier to keep a tool call with its results, so a compaction that kept
a whole tool round beyond the last ``preserveCount`` messages under-reports what it kept.

Pattern: two rules that agree on the examples; only a split moved by a tool round tells them apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "two rules agree on the examples"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    async def compact(
        self, messages: list[Any], *, persist: Callable[[list[Any]], None] | None = None
    ) -> Any:
        result = await super().compact(messages, persist=persist)
        return dataclasses.replace(result, preserved_count=min(self.preserve_count, len(messages)))


class Mutant(CompactorMutant):
    name = "semantic-sj_cmp_preserved_count_configured"
    compactor = Compactor


implementation = Mutant
