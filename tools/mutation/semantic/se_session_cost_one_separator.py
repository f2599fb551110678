"""``/cost`` groups the token counts with a hand-written regular expression that lacks its global flag
(``String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/, ",")``), so only the first separator is inserted:
1,234,567 tokens read are shown as ``1,234567``, where the original's ``toLocaleString()`` groups every
three digits.

Pattern: two rules agree on the examples (every count shown by ``/cost`` is below a million, where one
separator is all there is).
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import CostCommands

AREAS = ("session", "repl")
PATTERN = "two rules agree on the examples"

_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


def _first_separator_only(match: re.Match[str]) -> str:
    digits = match.group(0).replace(",", "")
    return re.sub(r"\B(?=(\d{3})+(?!\d))", ",", digits, count=1)


class Mutant(ReferenceImplementation):
    name = "semantic-se_session_cost_one_separator"

    def format_cost_output(self, usage: Any) -> str:
        text = super().format_cost_output(usage)
        head, sep, cost = text.rpartition(" | Cost: ")
        return _GROUPED.sub(_first_separator_only, head) + sep + cost

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        return CostCommands(super().repl_commands(runner=runner, **options), runner, self)


implementation = Mutant
