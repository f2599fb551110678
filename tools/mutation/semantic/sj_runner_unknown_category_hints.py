"""A tool error whose ``failureCategory`` is none of the three the port knows is judged by the keyword
hints: the port ``switch``es on the category (``command_not_found`` and ``invalid_usage`` count,
``execution_error`` does not) and lets every other value fall through to the text heuristics meant for
results *without* a category, where the original decides by any category given (only the two
countable ones count), so a tool reporting ``timeout`` with a ``Usage:`` line in its brief stops the
run as a misuse.

Pattern: precedence between two sources of one value; the examples give the three known categories,
or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.agent.tools import _COUNTABLE_HINTS, COUNTABLE_CATEGORIES
from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, logger

AREAS = ("agent",)
PATTERN = "precedence between two sources"
BASELINE = "_baseline_loop"

KNOWN = COUNTABLE_CATEGORIES | {"execution_error"}


def countable(result: Any) -> bool:
    category = (result.extras or {}).get("failureCategory")
    if category in KNOWN:
        return category in COUNTABLE_CATEGORIES
    texts = (str(result.brief or ""), str(result.output or ""))
    return any(hint in text.lower() for text in texts for hint in _COUNTABLE_HINTS)


class UnknownCategoryHints(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if countable(r))
        current = previous + 1 if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-sj_runner_unknown_category_hints"
    loop = UnknownCategoryHints


implementation = Mutant
