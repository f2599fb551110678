"""Timeline lines are parsed with the platform's lenient JSON reader (Python's ``json.loads`` takes the
bare words ``NaN``, ``Infinity`` and ``-Infinity``), where the original parses each line with
``JSON.parse`` and skips the ones it refuses.  An event a Python tool appended with its default
``json.dumps`` (a score of ``NaN``) is no event to the original, so ``query`` and ``latest`` leave it out,
and a ``session:compact`` written that way starts no cooldown; the port lists it and counts it.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); every line the
examples skip is refused by every JSON reader.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import timeline as timeline_module
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


class Timeline(Delegate):
    def events(self, session_id: str, **options: Any) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.events(session_id, **options)

    def query(self, session_id: str, **options: Any) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.query(session_id, **options)

    def latest(self, session_id: str, event_type: str) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.latest(session_id, event_type)


class Workflow(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_timeline = Timeline(inner.timeline)

    @property
    def timeline(self) -> Any:
        return self._mut_timeline

    def should_suggest_compact(self, **options: Any) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.should_suggest_compact(**options)

    def on_stop(self, event: Any) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(timeline_module, "json_parse", json.loads):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_timeline_json_constants"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
