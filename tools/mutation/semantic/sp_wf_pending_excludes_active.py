"""The compact decision's "a stage is still to come" counts only stages whose status is ``pending``:
the port writes ``Object.values(stages).some(s => s.status === 'pending')``, where the original asks
whether any stage is not ``completed`` (an ``active`` one, started and still running, is still to come).
When the last stages run in parallel (``refactor`` ends with REVIEW and TEST:2) and one of them passes
while the other still runs, the port sees nothing left and withholds the suggestion.

Pattern: two rules agree on the examples; every example with a suggestion still has a later stage that
has not started.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def only_pending(state: Mapping[str, Any]) -> list[str]:
    return [key for key, entry in state["stages"].items() if entry.get("status") == "pending"]


class Workflow(Delegate):
    def should_suggest_compact(self, **kwargs: Any) -> Any:
        with swapped(compact_suggestion, "pending_stages", only_pending):
            return self._inner.should_suggest_compact(**kwargs)

    def on_stop(self, event: Any) -> Any:
        with swapped(compact_suggestion, "pending_stages", only_pending):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(compact_suggestion, "pending_stages", only_pending):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sp_wf_pending_excludes_active"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
