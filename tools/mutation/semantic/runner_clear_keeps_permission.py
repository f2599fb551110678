"""``clear_session`` forgets the history, offloads and usage but not a pending sandbox permission
request: the permission handler is a separate object nobody remembers to reset.

Pattern: "nothing is left behind" asserted after one kind of state only.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent", "repl")
PATTERN = "state checked after one branch only"


class Runner(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_stale: Any = None

    def get_pending_sandbox_permission(self) -> Any:
        return self._inner.get_pending_sandbox_permission() or self._mut_stale

    def clear_session(self) -> None:
        self._mut_stale = self._inner.get_pending_sandbox_permission()
        self._inner.clear_session()

    async def step(self, user_message: str, **options: Any) -> Any:
        self._mut_stale = None  # a new request ends the old one, as in the reference
        return await self._inner.step(user_message, **options)

    async def run(self, user_message: str, **options: Any) -> Any:
        self._mut_stale = None
        return await self._inner.run(user_message, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-runner_clear_keeps_permission"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return Runner(super().agent_runner(llm, toolset, **options))


implementation = Mutant
