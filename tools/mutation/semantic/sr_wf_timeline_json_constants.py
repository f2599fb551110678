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
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_timeline_json_constants"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (timeline_module, "json_parse", json.loads)
        )


implementation = Mutant
