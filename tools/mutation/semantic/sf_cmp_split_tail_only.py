"""The kept tail is moved earlier only while it starts with a tool result: the port keeps a call and its
results together by looking at the tail's first message alone, where the original also refuses to end
the summarised part with an assistant tool call, so a call whose results never came (the tail starts
with a user message) is summarised as a dangling call.

Pattern: two conditions of one rule where the examples only ever meet the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "two rules agree on the examples"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def split_index(self, messages: Sequence[Any]) -> int:
        split = max(0, len(messages) - self.preserve_count)
        while 0 < split < len(messages) and messages[split].get("role") == "tool":
            split -= 1
        return split


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_split_tail_only"
    compactor = Compactor


implementation = Mutant
