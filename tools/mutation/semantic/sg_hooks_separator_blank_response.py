"""No blank line is put before the hook messages when the final response is blank: the port tests the
trimmed response (``finalResponse.trim() ? "\\n\\n" : ""``, ``if final_response.strip():``), where the
original tests the response itself, so an answer of white space only (a lone newline) is glued to the
marker instead of being set off from it like any other answer.

Pattern: empty vs blank (a rule meant for the empty value applied to a blank one); the examples'
responses are either empty or hold text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "empty vs blank value"

MARKER = "[StopHook]"


class Executor(Delegate):
    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        text = str(await self._inner.execute_and_append(final_response, **options))
        if final_response and not final_response.strip() and text != final_response:
            return final_response + text[len(final_response) + 2 :]
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-sg_hooks_separator_blank_response"

    def stop_hook_executor(self, **options: Any) -> Any:
        return Executor(super().stop_hook_executor(**options))


implementation = Mutant
