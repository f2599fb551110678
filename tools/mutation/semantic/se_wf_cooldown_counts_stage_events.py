"""The compact cooldown counts every event of the ``stage`` category after the latest compaction
(``events.filter(e => e.category === "stage")``): a ``stage:start`` or a ``stage:retry`` counts as a
completed stage, so one stage started and finished after a ``/compact`` already satisfies a cooldown of two
stages.  The original counts ``stage:complete`` events only.

Pattern: two rules agree on the examples (the example timelines after a compaction hold only
``stage:complete`` events of the stage category).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import api, compact_suggestion, on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


class StageCategoryTimeline(Delegate):
    """The timeline as the port's count sees it: any ``stage`` event is a completed stage."""

    def events(self, session_id: str, *, strict: bool = False) -> list[dict[str, Any]]:
        found = self._inner.events(session_id, strict=strict)
        return [{**e, "type": "stage:complete"} if e.get("category") == "stage" else e for e in found]


_reference = compact_suggestion.should_suggest_compact


def should_suggest_compact(*, timeline: Any, **arguments: Any) -> Any:
    shown: Any = StageCategoryTimeline(timeline)
    return _reference(timeline=shown, **arguments)


@contextlib.contextmanager
def _stage_category() -> Iterator[None]:
    with (
        swapped(on_stop, "should_suggest_compact", should_suggest_compact),
        swapped(api, "should_suggest_compact", should_suggest_compact),
    ):
        yield


class Workflow(Delegate):
    def should_suggest_compact(self, **arguments: Any) -> Any:
        with _stage_category():
            return self._inner.should_suggest_compact(**arguments)

    def on_stop(self, event: Any) -> Any:
        with _stage_category():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _stage_category():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_cooldown_counts_stage_events"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
