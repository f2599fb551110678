"""The timeline is read with ``str.splitlines()``: the port splits the log the way Python splits "lines",
at U+2028, U+2029, U+0085 and the other Unicode line breaks too, where the original splits the text it
read at ``\\n`` only.  ``JSON.stringify`` (and ``json.dumps`` with ``ensure_ascii=False``) writes those
characters raw inside a string, so an event whose data holds one (a message pasted from a web page, a
file name) is cut in two halves that are no JSON: ``query`` and ``latest`` lose it, and a strict read
(the compact decision) takes the whole timeline for damaged.

Pattern: a line rule that agrees on the examples; no example event holds a Unicode line break.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow.timeline import Timeline

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


class SplitlinesTimeline(Timeline):
    @staticmethod
    def _lines(text: str) -> list[str]:
        return text.splitlines()


class Mutant(ReferenceImplementation):
    name = "semantic-sk_wf_timeline_unicode_line_breaks"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        workflow: Any = super().staged_workflow(root, clock=clock)
        workflow.timeline = SplitlinesTimeline(workflow.paths, clock)
        return workflow


implementation = Mutant
