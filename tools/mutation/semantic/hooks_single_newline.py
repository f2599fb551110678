"""The messages of several stop hooks are joined with one newline: each hook's text "on its own line",
where the original separates them with a blank line (``"\\n\\n"``).

Pattern: a count that is never more than one cannot tell the separator; only two hooks that both report
a message do.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "one event per round"


class Executor(Delegate):
    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        text: str = await self._inner.execute_and_append(final_response, **options)
        marker = f"{self._mut_marker}\n"
        head, found, body = text.partition(marker)
        if not found:
            return text
        return head + found + body.replace("\n\n", "\n")


class Mutant(ReferenceImplementation):
    name = "semantic-hooks_single_newline"

    def stop_hook_executor(self, **options: Any) -> Any:
        executor = Executor(super().stop_hook_executor(**options))
        executor._mut_marker = self.stop_hook_marker
        return executor


implementation = Mutant
