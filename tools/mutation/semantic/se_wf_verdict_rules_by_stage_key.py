"""Without a VERDICT marker the keyword rules are chosen by the *numbered* stage key the agent finishes
(``parseResult(output, actualStageKey)``), where the original chooses them by the agent's base stage: the
port finds the stage key first and hands it on.  For a repeated stage (``TEST:2``, ``REVIEW:2``) no rule
matches the key, so a second test round reporting "3 tests failed" passes.

Pattern: two rules agree on the examples (the keyword examples finish the first, unnumbered key of their
stage, where the key is the base stage).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


@contextlib.contextmanager
def _rules_by_key() -> Iterator[None]:
    """The hook looks the stage key up before it parses the verdict; the port parses with that key."""
    find = getattr(on_stop, "find_actual_stage_key")  # noqa: B009 (not re-exported)
    parse = on_stop.parse_verdict
    found: list[str | None] = [None]

    def find_actual_stage_key(state: Any, base: str) -> str | None:
        found[0] = find(state, base)
        return found[0]

    def parse_verdict(output: str, stage: str) -> str:
        return parse(output, found[0] or stage)

    with (
        swapped(on_stop, "find_actual_stage_key", find_actual_stage_key),
        swapped(on_stop, "parse_verdict", parse_verdict),
    ):
        yield


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _rules_by_key():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _rules_by_key():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-se_wf_verdict_rules_by_stage_key"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
