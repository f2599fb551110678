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
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_state_json_constants"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (state_module, "json_parse", json.loads)
        )


implementation = Mutant
