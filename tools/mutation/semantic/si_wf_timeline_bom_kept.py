"""The timeline is decoded as it is on disk, byte-order mark included (``bytes.decode("utf-8")``, Java's
``UTF_8``, Go's ``bufio.Scanner``), where the original reads it as text and trims it
(``readFileSync(...).trim()``), which removes the mark: the first line of a log saved with a BOM is no
JSON to the port, so a query loses that event and the compact decision, which refuses a damaged log,
never suggests compacting.

Pattern: a BOM; every example timeline is written without one.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import timeline
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "a byte-order mark"

_NO_MARK = b"\x00no byte-order mark is dropped\x00"


class Timeline(Delegate):
    def query(self, session_id: str, **filters: Any) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.query(session_id, **filters)

    def latest(self, session_id: str, event_type: str) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.latest(session_id, event_type)

    def emit(self, session_id: str, event_type: str, data: Any = None) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.emit(session_id, event_type, data)


class Workflow(Delegate):
    @property
    def timeline(self) -> Any:
        return Timeline(self._inner.timeline)

    def should_suggest_compact(self, **arguments: Any) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.should_suggest_compact(**arguments)

    def on_stop(self, event: Any) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(timeline, "BOM", _NO_MARK):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-si_wf_timeline_bom_kept"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
