"""An empty ``failureCategory`` is taken as no category: the port tests the category for truthiness
(``if (cat) return COUNTABLE.has(cat)``, Go's ``if cat != ""``, Python's ``if category:``) where the
original asks ``typeof category === 'string'``.  A tool that sets the field but leaves it empty (a
category enum whose zero value is ``""``, a field copied from a result that had none) has its failure
judged again by the keywords of its brief and output, so an ordinary failure that prints a usage line
is counted towards the consecutive-failure stop.

Pattern: an empty value taken as unset; every categorised example names a category, and every
uncategorised one has no field at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import COUNTABLE, HINTS, AgentLoop, logger

AREAS = ("agent",)
PATTERN = "an empty value taken as unset"
BASELINE = "_baseline_loop"


def counts(result: Any) -> bool:
    category = (result.extras or {}).get("failureCategory")
    if category:
        return category in COUNTABLE
    return any(hint in part.lower() for part in (result.brief, result.output) for hint in HINTS)


class EmptyCategoryLoop(AgentLoop):
    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if counts(r))
        current = previous + 1 if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current


class Mutant(Baseline):
    name = "semantic-sq_runner_empty_category_hints"
    loop = EmptyCategoryLoop


implementation = Mutant
