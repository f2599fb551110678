"""After "allow for this session" or "allow permanently" the permission request stays pending: the port
clears it in the ``allow_once`` and ``deny`` branches, where the command's outcome is final, and
forgets the branches that retry the command.

Pattern: "nothing is left behind" asserted after one answer only; the pending request must be gone
after every kind of answer.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "state checked after one branch only"


class Runner(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_stale: Any = None

    def get_pending_sandbox_permission(self) -> Any:
        return self._inner.get_pending_sandbox_permission() or self._mut_stale

    async def resolve_sandbox_permission(self, option: str) -> str:
        pending = self._inner.get_pending_sandbox_permission()
        answer: str = await self._inner.resolve_sandbox_permission(option)
        self._mut_stale = pending if option in ("allow_session", "allow_permanent") else None
        return answer

    async def step(self, user_message: str, **options: Any) -> Any:
        self._mut_stale = None  # a new request ends the old one, as in the reference
        return await self._inner.step(user_message, **options)

    async def run(self, user_message: str, **options: Any) -> Any:
        self._mut_stale = None
        return await self._inner.run(user_message, **options)

    def clear_session(self) -> None:
        self._mut_stale = None
        self._inner.clear_session()


class Mutant(ReferenceImplementation):
    name = "semantic-sandbox_pending_after_allow"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return Runner(super().agent_runner(llm, toolset, **options))


implementation = Mutant
