"""The stop hooks' messages are trimmed before they are joined: the port drops blank messages with
``messages.map(m => m?.trim()).filter(Boolean)``, which also cuts the indentation and trailing blank lines
of every message it keeps, where the original only *tests* the trimmed text (``message.trim().length >
0``) and appends the message as the hook wrote it: an indented list or a code block loses its first
indent.

Pattern: whitespace handled by one rule where two apply (blank detection vs the text shown); the example
hook messages have no surrounding whitespace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent.stop_hooks import StopHookRegistry
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("session", "agent")
PATTERN = "whitespace handled by one rule where two apply"


_reference = StopHookRegistry.execute_all


async def execute_all(self: StopHookRegistry, context: Any) -> list[Mapping[str, Any]]:
    results = await _reference(self, context)
    return [
        {**r, "message": r["message"].strip()} if isinstance(r.get("message"), str) else r for r in results
    ]


class Executor(Delegate):
    """The executor the implementation hands out; its registry (the loader's) is the reference's own."""

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        with swapped(StopHookRegistry, "execute_all", execute_all):
            text: str = await self._inner.execute_and_append(final_response, **options)
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-se_hooks_messages_trimmed"

    def stop_hook_executor(self, **options: Any) -> Any:
        return Executor(super().stop_hook_executor(**options))


implementation = Mutant
