"""``workflow.json`` is read with the platform's lenient JSON reader (Python's ``json.loads`` takes the
bare words ``NaN``, ``Infinity`` and ``-Infinity``), where the original reads it with ``JSON.parse``, for
which such a file is no JSON and the session has no state it can use.  A state that a Python tool
rewrote with its default ``json.dumps`` (an ``elapsedMs`` of ``NaN`` beside the stages) is no state to
the original: the hook has nothing to complete and no compaction is suggested; the port reads it, and
suggests a compaction or completes a stage on it.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); the damaged state
of the examples is no JSON object to any reader.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import state as state_module
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


class Workflow(Delegate):
    def _mut_call(self, name: str, *args: Any, **options: Any) -> Any:
        with swapped(state_module, "json_parse", json.loads):
            return getattr(self._inner, name)(*args, **options)

    def should_suggest_compact(self, **options: Any) -> Any:
        return self._mut_call("should_suggest_compact", **options)

    def on_stop(self, event: Any) -> Any:
        return self._mut_call("on_stop", event)

    def on_stop_command(self, stdin: str) -> Any:
        return self._mut_call("on_stop_command", stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_state_json_constants"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
