"""A timeline line is taken as blank when the language's own ``strip()`` empties it (Python's
``str.strip``), where the original reads its text with JavaScript's ``trim()``: the two agree on spaces,
tabs and the no-break space, but only JavaScript counts the byte-order mark U+FEFF as white space, and only
Python the information separators U+001C to U+001F.  The compact decision refuses a timeline it cannot
read; a log with a second file's byte-order mark on a line of its own is then unreadable to the port, which
never suggests a compaction again, while a line holding a stray U+001C, no JSON, passes as blank.

Pattern: JavaScript against Python readings (trim's white space set); the examples' blank lines are empty
or ASCII white space.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import timeline as timeline_module
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


def python_strip(text: str) -> str:
    return text.strip()


class Timeline(Delegate):
    def _mut_read(self, name: str, *args: Any, **options: Any) -> Any:
        with swapped(timeline_module, "trim", python_strip):
            return getattr(self._inner, name)(*args, **options)

    def events(self, session_id: str, **options: Any) -> Any:
        return self._mut_read("events", session_id, **options)

    def query(self, session_id: str, **options: Any) -> Any:
        return self._mut_read("query", session_id, **options)

    def latest(self, session_id: str, event_type: str) -> Any:
        return self._mut_read("latest", session_id, event_type)


class Workflow(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_timeline = Timeline(inner.timeline)

    @property
    def timeline(self) -> Any:
        return self._mut_timeline

    def _mut_call(self, name: str, *args: Any, **options: Any) -> Any:
        with swapped(timeline_module, "trim", python_strip):
            return getattr(self._inner, name)(*args, **options)

    def should_suggest_compact(self, **options: Any) -> Any:
        return self._mut_call("should_suggest_compact", **options)

    def on_stop(self, event: Any) -> Any:
        return self._mut_call("on_stop", event)

    def on_stop_command(self, stdin: str) -> Any:
        return self._mut_call("on_stop_command", stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_timeline_blank_python_strip"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
