"""``SYNAPSE_COMPACT_THRESHOLD_MB`` is converted to a whole number of bytes
(``Math.round(mb * 1_000_000)``, "sizes are integers"), where the original compares the transcript with
``thresholdMb * 1_000_000`` as it is: a setting of 1.0000007 MB becomes 1,000,001 bytes, which a
1,000,001-byte transcript does not exceed, and 0.0000007 MB becomes 1 byte.

Pattern: two rules agree on the examples (every example setting is a whole number of bytes).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"

_reference = compact_suggestion.threshold_from_env


def threshold_from_env() -> float:
    return round(_reference())


def _rounded() -> Any:
    return swapped(compact_suggestion, "threshold_from_env", threshold_from_env)


class Workflow(Delegate):
    def should_suggest_compact(self, **arguments: Any) -> Any:
        with _rounded():
            return self._inner.should_suggest_compact(**arguments)

    def on_stop(self, event: Any) -> Any:
        with _rounded():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _rounded():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_threshold_env_rounded"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
