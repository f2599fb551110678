"""Hook progress is collected while the hooks run and shown when they have all finished: the port
queues each ``onProgress`` message and flushes the queue after ``executeAll`` (so that progress "never
interleaves with a hook's output"), where the original awaits ``onMessagePart`` inside ``onProgress``.
The user of a hook that says "Analyzing skill enhancement..." and then works for half a minute sees
nothing until it is done, and the line then arrives next to the final report it was meant to precede.

Pattern: the same parts, delivered at another time; every example checks what the callback received,
never when.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._support import StopHookProgress, StopHookProgressMutant

AREAS = ("session", "agent")
PATTERN = "same parts, delivered late"


class Executor(StopHookProgress):
    _mut_queue: list[str] | None = None

    async def emit_progress(self, message: str) -> None:
        if self._mut_queue is None:
            await super().emit_progress(message)
        else:
            self._mut_queue.append(message)

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        self._mut_queue = []
        try:
            return await super().execute_and_append(final_response, **options)
        finally:
            queued, self._mut_queue = self._mut_queue, None
            for message in queued:
                await super().emit_progress(message)


class Mutant(StopHookProgressMutant):
    name = "semantic-so_hooks_progress_after_hooks"
    executor = Executor


implementation = Mutant
