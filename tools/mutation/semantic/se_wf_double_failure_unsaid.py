"""A fail or a reject is answered by its own branch alone: the port writes the fail branch from the fail
count and the reject branch from the reject count, and never looks at the other counter, where the
original's D3 rule calls a reject after a failed test (or a fail after a reject) a double failure of the
parallel quality group and gives one coordinated next step.

Pattern: state checked after one branch only (each verdict branch ignores what the other one counted);
the fail and reject examples each start from a clean counter.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "state checked after one branch only"

_hook = on_stop.SubagentStopHook
_reference_fail = _hook.__dict__["_on_fail"]
_reference_reject = _hook.__dict__["_on_reject"]


def _on_fail(self: Any, state: Any, *args: Any) -> list[str]:
    return list(_reference_fail(self, {**state, "rejectCount": 0}, *args))


def _on_reject(self: Any, state: Any, *args: Any) -> list[str]:
    return list(_reference_reject(self, {**state, "failCount": 0}, *args))


@contextlib.contextmanager
def _single_branch() -> Iterator[None]:
    with swapped(_hook, "_on_fail", _on_fail), swapped(_hook, "_on_reject", _on_reject):
        yield


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _single_branch():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _single_branch():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_double_failure_unsaid"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
