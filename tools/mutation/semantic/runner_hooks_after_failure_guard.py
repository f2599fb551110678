"""Stop hooks also run when the run ends on the consecutive-tool-failure guard: the guard ``break``s out
of the loop into the normal ending instead of returning, so only the iteration limit skips the hooks.

Pattern: "nothing is left behind" asserted after one branch only; the spec must check every way a
run can end without the model finishing (iteration limit, failure guard, pending permission).
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent", "session")
PATTERN = "state checked after one branch only"
ITERATION_LIMIT = "Reached tool iteration limit"


class Runner(Delegate):
    def __init__(self, inner: Any, hooks: Any, session: Any, cwd: str | None) -> None:
        super().__init__(inner)
        self._mut_hooks = hooks
        self._mut_session = session
        self._mut_cwd = cwd

    async def run(self, user_message: str, **options: Any) -> str:
        hooks = self._mut_hooks
        if hooks is not None:
            hooks.init()
        text: str = await self._inner.run(user_message, **options)
        if hooks is None or not hooks.should_execute():
            return text
        if text.startswith(ITERATION_LIMIT) or self._inner.get_pending_sandbox_permission() is not None:
            return text
        return str(
            await hooks.execute_and_append(
                text,
                session_id=self._mut_session.id if self._mut_session is not None else None,
                messages=list(self._inner.history),
                cwd=self._mut_cwd if self._mut_cwd is not None else os.getcwd(),
            )
        )

    async def step(self, user_message: str, **options: Any) -> Any:
        if self._mut_hooks is not None:
            self._mut_hooks.init()
        return await self._inner.step(user_message, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-runner_hooks_after_failure_guard"

    def agent_runner(self, llm: Any, toolset: Any, *, stop_hooks: Any = None, **options: Any) -> Any:
        inner = super().agent_runner(llm, toolset, stop_hooks=None, **options)
        return Runner(inner, stop_hooks, options.get("session"), options.get("cwd"))


implementation = Mutant
