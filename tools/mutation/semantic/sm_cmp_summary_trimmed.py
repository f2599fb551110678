"""The summary is trimmed before it is put after ``[Compressed History]``: the port tidies the model's
reply (``extractText(reply).trim()``, Python's ``text.strip()``) where the original keeps the text the
model wrote, joined as it came.  A summary that starts with an indented line (a code block, a nested
list) or ends in a trailing newline is changed; and since the blank-summary check already trims, the
port's extra trim is easy to add "for symmetry".

Pattern: order of operations (trim where the original only tests the trimmed text); every example
summary has no white space at its ends.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "trim where the original only tests"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    async def generate_summary(self, messages: list[Any]) -> str:
        return (await super().generate_summary(messages)).strip()


class Mutant(CompactorMutant):
    name = "semantic-sm_cmp_summary_trimmed"
    compactor = Compactor


implementation = Mutant
