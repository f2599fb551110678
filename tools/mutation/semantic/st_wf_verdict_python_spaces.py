"""The VERDICT marker is found with the original's pattern, ``<!--\\s*VERDICT:\\s*(\\{[^}]+\\})\\s*-->``,
copied as it is into Python's ``re``.  Python's ``\\s`` is not JavaScript's: it leaves out U+FEFF, which
JavaScript counts as white space, and takes the information separators U+001C..U+001F and U+0085, which
JavaScript does not.  A marker an editor wrote with a byte-order mark after ``<!--`` is no marker to the
port, so ``2 tests failed <!--{U+FEFF}VERDICT: {"result": "PASS"} -->`` is a fail; one with U+001C there
is a marker to the port and none to the original.

Pattern: a regular expression's ``\\s`` read by Python's rules; every example marker is spaced with ASCII.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "a regular expression's \\s read by Python's rules"

PYTHON_MARKER = re.compile(r"<!--\s*VERDICT:\s*(\{[^}]+\})\s*-->")


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "_VERDICT_MARKER", PYTHON_MARKER):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "_VERDICT_MARKER", PYTHON_MARKER):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_verdict_python_spaces"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
