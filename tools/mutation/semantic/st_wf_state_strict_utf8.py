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
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "a file decoded strictly where JavaScript replaces invalid bytes"


def read_strictly(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class Store(Delegate):
    def read(self, session_id: str) -> Any:
        with swapped(state_module, "read_state_text", read_strictly):
            return self._inner.read(session_id)


class Workflow(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_state = Store(inner.state)

    @property
    def state(self) -> Any:
        return self._mut_state

    def _mut_call(self, name: str, *args: Any, **options: Any) -> Any:
        with swapped(state_module, "read_state_text", read_strictly):
            return getattr(self._inner, name)(*args, **options)

    def should_suggest_compact(self, **options: Any) -> Any:
        return self._mut_call("should_suggest_compact", **options)

    def on_stop(self, event: Any) -> Any:
        return self._mut_call("on_stop", event)

    def on_stop_command(self, stdin: str) -> Any:
        return self._mut_call("on_stop_command", stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_state_strict_utf8"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
