"""The trim counts the timeline's lines with the language's line splitter, ``bytes.splitlines()``,
where the original splits its text at "\\n" only (``content.trim().split('\\n')``).  ``splitlines`` also
ends a line at a lone carriage return: a damaged line where a CR stands between two events (a line written
with the old Mac line end, or two writes run together) is one line, and no event, to the original; to the
port it is two, each a valid event, so the trim comes one line early and writes the second half back as an
event of its own, which ``query`` then returns.  (The reference itself trimmed so; WF-136#2 pins the
original's reading.)

Pattern: ``splitlines()`` against ``split("\\n")``; every example timeline is written by ``emit``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import timeline as timeline_module
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "splitlines() against split('\\n')"


def splitlines_lines(raw: bytes) -> list[bytes]:
    return [line for line in raw.splitlines(keepends=True) if line.strip(b"\r\n")]


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_timeline_trim_splitlines"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (timeline_module, "trim_lines", splitlines_lines)
        )


implementation = Mutant
