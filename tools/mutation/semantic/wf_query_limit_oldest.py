"""``timeline.query(limit=n)`` returns the *first* n matching events (``slice(0, n)``); the original
keeps the newest ones.

Pattern: a count that is never more than the limit (or one matching event) cannot tell which end is
kept; a query over more events than its limit can.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "one event per round"


class Timeline(Delegate):
    def query(self, session_id: str, *, limit: int | None = None, **filters: Any) -> Any:
        found = self._inner.query(session_id, **filters)
        return found[:limit] if limit else found


class Workflow(Delegate):
    @property
    def timeline(self) -> Any:
        return Timeline(self._inner.timeline)


class Mutant(ReferenceImplementation):
    name = "semantic-wf_query_limit_oldest"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
