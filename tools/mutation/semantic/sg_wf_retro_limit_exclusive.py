"""The retrospective's iteration limit is reached only after the third round (``retroCount > 3``), where
the original stops offering new rounds at the third (``retroCount >= 3``): the third round that finds
issues still suggests ``/ot:auto`` and only a fourth says the limit is reached.

Pattern: ``>`` vs ``>=`` tested on one side only (the examples stop at the second round, where both
tests say "not yet").
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import api, command, on_stop
from synapse_ref.workflow.registry import MAX_RETRIES
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "> vs >= tested on one side only"

LIMIT_REACHED = "⛔ 已達迭代上限"
NEW_ROUND = "💡 可選：觸發 /ot:auto 新一輪優化，或繼續完成剩餘 stages"


class ExclusiveLimitHook(on_stop.SubagentStopHook):
    def _on_issues(self, session_id: str, emoji: str, label: str) -> list[str]:
        messages = super()._on_issues(session_id, emoji, label)
        state = self._store.read(session_id)
        if state is not None and state["retroCount"] <= MAX_RETRIES:
            return [NEW_ROUND if line.startswith(LIMIT_REACHED) else line for line in messages]
        return messages


@contextlib.contextmanager
def _exclusive_limit() -> Iterator[None]:
    with (
        swapped(api, "SubagentStopHook", ExclusiveLimitHook),
        swapped(command, "SubagentStopHook", ExclusiveLimitHook),
    ):
        yield


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _exclusive_limit():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _exclusive_limit():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sg_wf_retro_limit_exclusive"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
