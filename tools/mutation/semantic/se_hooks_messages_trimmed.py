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
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "whitespace handled by one rule where two apply"


class TrimmingRegistry(Delegate):
    async def execute_all(self, context: Any) -> list[Mapping[str, Any]]:
        results = await self._inner.execute_all(context)
        return [
            {**r, "message": r["message"].strip()} if isinstance(r.get("message"), str) else r
            for r in results
        ]


class Mutant(ReferenceImplementation):
    name = "semantic-se_hooks_messages_trimmed"

    def stop_hook_executor(self, *, registry: Any, **options: Any) -> Any:
        return super().stop_hook_executor(registry=TrimmingRegistry(registry), **options)


implementation = Mutant
