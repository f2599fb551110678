"""A command ended by a signal reports Python's return code: the port passes ``process.returncode`` (or
Node's ``child.exitCode``/``signal`` pair read as ``-signal``) on as the exit code, where a shell, and
the original's shell session, reports ``128 + N`` (``$?`` is 143 after SIGTERM), so the model reads
``Command failed with exit code -15``.

Pattern: two sources of one value (an exit status and a terminating signal) folded by different rules;
every failing command of the examples ends with ``exit N`` or a missing command.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "two sources of one value"


def python_return_code(returncode: int) -> int:
    return returncode


class Tool(Delegate):
    async def call(self, args: Any) -> Any:
        from synapse_ref.agent import bash_tool

        with swapped(bash_tool, "shell_exit_code", python_return_code):
            return await self._inner.call(args)

    async def execute_unsandboxed(self, command: str, cwd: str) -> Any:
        from synapse_ref.agent import bash_tool

        with swapped(bash_tool, "shell_exit_code", python_return_code):
            return await self._inner.execute_unsandboxed(command, cwd)


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        from synapse_ref.agent import bash_tool

        with swapped(bash_tool, "shell_exit_code", python_return_code):
            return await self._inner.handle(tool_call)

    def get_tool(self, name: str) -> Any:
        tool = self._inner.get_tool(name)
        return Tool(tool) if tool is not None else None


class Mutant(ReferenceImplementation):
    name = "semantic-sh_bash_signal_exit_negative"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
