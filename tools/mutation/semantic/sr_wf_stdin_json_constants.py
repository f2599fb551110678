"""The hook command reads its stdin with the platform's lenient JSON reader (Python's ``json.loads``
takes ``NaN``, ``Infinity`` and ``-Infinity`` as numbers), where the original hook reads it with
``JSON.parse`` and, on the error that raises, answers an empty result.  A SubagentStop event carrying a
``NaN`` anywhere (a field the hook never uses, written by a Python wrapper whose ``json.dumps`` allows
it) is no event to the original, which leaves the workflow as it is; the port completes the stage,
writes the timeline and tells the main agent what to do next.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); the invalid inputs
of the examples are invalid to every JSON reader.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import command
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_stdin_json_constants"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (command, "json_parse", json.loads)
        )


implementation = Mutant
