"""A reject reaches the limit when the fails and the rejects together reach three: the port keeps one
"retries" budget for the stage loop (``failCount + rejectCount >= maxRetries``), where the original counts
rejects against their own limit.  A review rejected for the first time after two failed test rounds asks
for a human instead of sending the developer back.

Pattern: precedence between two sources of one value (the reject count vs the sum of both counts); in the
reject examples no test has failed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from synapse_ref.workflow.registry import MAX_RETRIES
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "precedence between two sources of one value"


_reference_on_reject = on_stop.SubagentStopHook.__dict__["_on_reject"]


def _on_reject(self: Any, state: Any, emit: Any) -> list[str]:
    rejects = state["rejectCount"]
    if rejects + state["failCount"] >= MAX_RETRIES:
        emit("error:fatal", {"reason": "拒絕上限", "rejectCount": rejects})
        return [f"⛔ 審查拒絕已達上限（{MAX_RETRIES} 次）。請人工介入。"]
    return list(_reference_on_reject(self, state, emit))  # below both limits: the same messages


@contextlib.contextmanager
def _shared_budget() -> Iterator[None]:
    hook = on_stop.SubagentStopHook
    hook._on_reject = _on_reject  # type: ignore[method-assign]
    try:
        yield
    finally:
        hook._on_reject = _reference_on_reject  # type: ignore[method-assign]


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _shared_budget():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _shared_budget():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_reject_limit_total"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
