"""The trim counts every newline of the timeline as a line (``text.count("\\n")``, or the lines of
``split("\\n")`` as they come), where the original counts the lines its ``filter(Boolean)`` keeps:
empty lines are none.  A timeline with blank lines (a second writer's empty line, a log an editor saved
with a blank line at the end) is trimmed before it reaches the limit, and the oldest events are dropped
though there is room for them.  (The reference itself counted so; WF-136#1 pins the original's count.)

Pattern: a line count that agrees on the examples; every example timeline is written by ``emit``, which
writes no blank line.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import timeline as timeline_module
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "a line count that agrees on the examples"


def newline_count_lines(raw: bytes) -> list[bytes]:
    return [line + b"\n" for line in raw.split(b"\n")[:-1]]


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_timeline_trim_counts_blank_lines"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (timeline_module, "trim_lines", newline_count_lines)
        )


implementation = Mutant
