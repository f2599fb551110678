"""The tool message leaves out an output or a message made only of whitespace: the port builds it with
``[output, message].filter(p => p.trim()).join("\\n\\n")``, the filter it also wrote for the "no
output" fallback, where the original's ``toolResultToMessage`` leaves out only the empty ones
(``part.length > 0``), so a command whose output is a lone newline (``echo``) still shows it before its
message.

Pattern: empty vs blank; the examples' parts are either empty or carry visible text.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "empty vs blank"
BASELINE = "_baseline_loop"


class BlankDropped(Delegate):
    """A tool result whose whitespace-only output or message reads as empty."""

    @property
    def output(self) -> Any:
        value = self._inner.output
        return value if isinstance(value, str) and value.strip() else ""

    @property
    def message(self) -> Any:
        value = self._inner.message
        return value if isinstance(value, str) and value.strip() else ""


class Toolset(Delegate):
    async def handle(self, call: Any) -> Any:
        return BlankDropped(await self._inner.handle(call))


class BlankDroppingLoop(AgentLoop):
    def __init__(self, implementation: Any, llm: Any, toolset: Any, **options: Any) -> None:
        super().__init__(implementation, llm, Toolset(toolset), **options)


class Mutant(Baseline):
    name = "semantic-sh_runner_tool_text_blank_dropped"
    loop = BlankDroppingLoop


implementation = Mutant
