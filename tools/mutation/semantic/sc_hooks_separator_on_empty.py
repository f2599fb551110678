"""The hook messages are always put after a blank line, even when the model's final response is empty:
the port writes ``response + "\\n\\n" + marker`` where the original adds the separator only after a
non-empty response, so an empty answer starts with two blank lines.

Pattern: a default applied to an empty value; every example has a non-empty final response.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "empty value handled like a present one"


class Executor(Delegate):
    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        text: str = await self._inner.execute_and_append(final_response, **options)
        if not final_response and text.startswith(self._mut_marker):
            return "\n\n" + text
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-sc_hooks_separator_on_empty"

    def stop_hook_executor(self, **options: Any) -> Any:
        executor = Executor(super().stop_hook_executor(**options))
        executor._mut_marker = self.stop_hook_marker
        return executor


implementation = Mutant
