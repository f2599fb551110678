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
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "JavaScript against Python readings"


def python_strip(text: str) -> str:
    return text.strip()


class Mutant(ReferenceImplementation):
    name = "semantic-sr_wf_timeline_blank_python_strip"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (timeline_module, "trim", python_strip)
        )


implementation = Mutant
