"""The stage an agent finishes is the first of its stage's keys that is not completed yet: the port
writes ``keys.find(k => base(k) === stage && stages[k].status !== "completed")``, where the original looks
for an *active* key first and takes the first pending one only when none is active. When a repeated stage
(``TEST`` and ``TEST:2``) has its later key running while the earlier one still waits, the hook completes
the waiting one and leaves the running one active.

Pattern: precedence between two sources of one value (the active key vs the first open key); in the
examples the active key is always the first open one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.registry import base_stage
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "precedence between two sources"


def first_open_key(state: Any, base: str) -> str | None:
    stages = state["stages"]
    return next(
        (k for k in stages if base_stage(k) == base and stages[k].get("status") in ("active", "pending")),
        None,
    )


@contextlib.contextmanager
def _first_open() -> Iterator[None]:
    """Swapped only while a call of this implementation runs; the reference keeps its own rule."""
    saved = getattr(on_stop, "find_actual_stage_key")  # noqa: B009 (not re-exported)
    setattr(on_stop, "find_actual_stage_key", first_open_key)  # noqa: B010 (not re-exported by name)
    try:
        yield
    finally:
        setattr(on_stop, "find_actual_stage_key", saved)  # noqa: B010


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _first_open():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _first_open():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sd_wf_stage_key_first_open"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
