"""``workflow.json`` is decoded strictly, as Python's ``read_text(encoding="utf-8")`` (or Go's and Rust's
checked conversions) do, where the original reads it with ``readFileSync(path, 'utf8')``, which turns a
byte that is no UTF-8 into U+FFFD.  A state whose feature name was written in another encoding (a
Latin-1 ``café`` from a script) is a state to the original, which completes the stage and moves on; to the
port it is unreadable, so the hook answers nothing and the stage stays open.  (The reference itself read
it so; WF-137 pins the original's reading.)

Pattern: a file decoded strictly where JavaScript replaces invalid bytes; every example state is UTF-8.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import state as state_module
from tools.mutation.semantic._support import SwappedWorkflow

AREAS = ("workflow",)
PATTERN = "a file decoded strictly where JavaScript replaces invalid bytes"


def read_strictly(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_state_strict_utf8"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return SwappedWorkflow(
            super().staged_workflow(root, clock=clock), (state_module, "read_state_text", read_strictly)
        )


implementation = Mutant
