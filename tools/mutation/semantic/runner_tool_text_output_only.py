"""The tool message the model sees is the tool's ``output``, or its ``message`` when there is no output
(``output || message``); the original shows both, joined by a blank line.

Pattern: an input carrying two things rendered by different rules; a tool result with output *and*
message is the only case that tells.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "input carrying two things rendered by different rules"


class OutputOnly(Delegate):
    @property
    def message(self) -> str:
        extras = self._inner.extras or {}
        if self._inner.output and extras.get("type") != "sandbox_blocked":
            return ""
        return str(self._inner.message)


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        return OutputOnly(await self._inner.handle(tool_call))


class Mutant(ReferenceImplementation):
    name = "semantic-runner_tool_text_output_only"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return super().agent_runner(llm, Toolset(toolset), **options)


implementation = Mutant
