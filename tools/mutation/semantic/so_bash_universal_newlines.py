"""The Bash tool reads a command's output in text mode with universal newlines: the port's idiomatic
``subprocess.run(..., text=True)`` (or ``Popen(universal_newlines=True)``) turns ``\\r\\n`` and a lone
``\\r`` into ``\\n``, where the original decodes the bytes as they are.  Output with Windows line endings,
HTTP headers (``curl -i``) and progress bars that redraw a line with ``\\r`` reach the model changed: a
progress line that was overwritten reads as two finished lines, and a ``\\r\\n`` file the model wants to
edit looks like an ``\\n`` file.

Pattern: text read by the host language's default; every example output ends its lines with ``\\n``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent import bash_tool
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "text read by the host language's default"

_REFERENCE_RUN = bash_tool.run_command


def _universal(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


async def text_mode_run(command: str, cwd: str, **options: Any) -> bash_tool.CommandRun:
    run = await _REFERENCE_RUN(command, cwd, **options)
    return bash_tool.CommandRun(_universal(run.stdout), _universal(run.stderr), run.exit_code)


def _text_mode() -> Any:
    return swapped(bash_tool, "run_command", text_mode_run)


class Tool(Delegate):
    async def call(self, args: Any) -> Any:
        with _text_mode():
            return await self._inner.call(args)

    async def execute_unsandboxed(self, command: str, cwd: str) -> Any:
        with _text_mode():
            return await self._inner.execute_unsandboxed(command, cwd)


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        with _text_mode():
            return await self._inner.handle(tool_call)

    def get_tool(self, name: str) -> Any:
        tool = self._inner.get_tool(name)
        return Tool(tool) if tool is not None else None


class Mutant(ReferenceImplementation):
    name = "semantic-so_bash_universal_newlines"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
