"""A tool error without a ``failureCategory`` is judged by the keyword hints in everything the model is
shown, its ``message`` included: the port reuses the tool-result text it already built for the history
(``output`` and ``message`` joined) as the hint text, where the original's ``shouldCountToolFailure``
reads ``brief`` and ``output`` only.  A tool whose error message merely quotes a usage line or the words
"invalid parameters" (a read tool reporting "Invalid parameters: see usage: ..." in its ``message``,
with a brief such as "Read failed") is counted towards the consecutive-failure stop, so a run that the
original lets the model correct by itself ends with "Consecutive tool execution failures; stopping.".

Pattern: an input carrying several texts judged on a different set of them; every uncategorised example
error carries its hint in the brief or the output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import COUNTABLE, HINTS, AgentLoop, logger

AREAS = ("agent",)
PATTERN = "input carrying two things"
BASELINE = "_baseline_loop"


def counts_with_message(result: Any) -> bool:
    category = (result.extras or {}).get("failureCategory")
    if isinstance(category, str):
        return category in COUNTABLE
    parts = (result.brief, result.output, result.message)
    return any(hint in str(part).lower() for part in parts for hint in HINTS)


class MessageHints(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if counts_with_message(r))
        current = previous + 1 if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-sm_runner_hints_in_message"
    loop = MessageHints


implementation = Mutant
