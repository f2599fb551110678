"""``timeline.query(category=...)`` filters on the category the registry gives the event's *type*
(``timelineEvents[e.type]?.category === filter.category``, "the category follows from the type"), where
the original compares the category written in the event (``e.category === filter.category``).  A line
another tool or an older version wrote with its own category, or with a type the registry does not know,
is then listed under the wrong category or not at all.

Pattern: two rules agree on the examples: every example line carries the category the registry gives its
type.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow.registry import TIMELINE_EVENTS
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


class Timeline(Delegate):
    def query(
        self,
        session_id: str,
        *,
        event_type: str | None = None,
        category: str | None = None,
        limit: int | None = None,
    ) -> Any:
        found = self._inner.query(session_id, event_type=event_type)
        if category is not None:
            found = [e for e in found if TIMELINE_EVENTS.get(e["type"], {}).get("category") == category]
        return found[-limit:] if limit else found


class Workflow(Delegate):
    @property
    def timeline(self) -> Any:
        return Timeline(self._inner.timeline)


class Mutant(ReferenceImplementation):
    name = "semantic-si_wf_query_category_by_type"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
