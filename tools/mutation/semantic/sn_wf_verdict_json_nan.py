"""The VERDICT marker is read with the host language's JSON parser, which takes ``NaN`` and ``Infinity``
(Python's ``json.loads``), where the original's ``JSON.parse`` refuses them and falls back to the stage's
keyword rules: ``2 tests failed <!-- VERDICT: {"result": "PASS", "score": NaN} -->`` is a fail to the
original and a pass to the port, which moves the workflow on past a failing test.  (The reference itself
read it so; WF-043#7..#8 pin the original.)

Pattern: a text read by another language's rules; every example marker is strict JSON or no JSON at all.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "a text read by another language's rules"


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with swapped(on_stop, "json_parse", json.loads):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(on_stop, "json_parse", json.loads):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_wf_verdict_json_nan"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
