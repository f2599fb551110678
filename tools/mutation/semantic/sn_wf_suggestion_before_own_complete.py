"""The compact suggestion's cooldown does not count the stage the hook is completing: the port decides
on the suggestion before it records the stage (``const suggestion = shouldSuggestCompact(...)`` computed
with the other results, then the ``stage:complete`` events emitted), where the original emits
``stage:complete`` first and asks afterwards, so the stage that just passed is one of the
``minStagesSinceCompact`` completed since the last compaction.  After a compaction the port suggests the
next one a stage later than the original.

Pattern: order of operations (record, then decide); the examples' timelines already hold enough
completed stages, or none since the compaction.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.compact_suggestion import should_suggest_compact
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "order of operations"


class _WithoutOwnComplete(Delegate):
    """The timeline as it was before the hook emitted its own ``stage:complete`` (the last one)."""

    def events(self, session_id: str, *, strict: bool = False) -> list[Any]:
        found = list(self._inner.events(session_id, strict=strict))
        for index in range(len(found) - 1, -1, -1):
            if found[index].get("type") == "stage:complete":
                del found[index]
                break
        return found


def suggest_before_complete(**kwargs: Any) -> Any:
    return should_suggest_compact(**{**kwargs, "timeline": _WithoutOwnComplete(kwargs["timeline"])})


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "should_suggest_compact", suggest_before_complete):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "should_suggest_compact", suggest_before_complete):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_wf_suggestion_before_own_complete"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
