"""``shouldSuggestCompact`` checks that its numeric options are integers with the host language's type
test, ``isinstance(value, int)``, where the original's options are JavaScript numbers: ``3e6`` or
``3000000.0`` (what a JSON encoder writes for a computed size, or ``2.0`` stages) is the integer 3000000 to
JavaScript, which cannot tell them apart, and a caller error to the port, which refuses the call instead of
deciding.  (The reference itself refused them; WF-047#28..#29 and WF-048#9..#10 pin the original's
reading.)

Pattern: ``JSON.stringify`` writes ``1.0`` as ``1``: an integral float told from an integer; every example
option is written without a fraction or an exponent.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "an integral float told from an integer"


def python_int_only(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Workflow(Delegate):
    def should_suggest_compact(self, **options: Any) -> Any:
        with swapped(compact_suggestion, "_whole_number", python_int_only):
            return self._inner.should_suggest_compact(**options)


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_options_integral_float_refused"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
