"""A failed command is classified by the first line of its error output: the port reads
``stderr.split("\\n")[0]`` (the line that "says what went wrong"), where the original searches the whole
error output, so a command that first warns and then prints its ``usage:`` line, or a script whose
second command is missing, counts as an ``execution_error`` and neither gets the ``--help`` hint after
its output nor counts towards the consecutive-failure stop.

Pattern: one event per round; every example's error output is a single line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent.bash_tool import _failure_category
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "only the first of several"


def first_line_category(stderr: str) -> str:
    return _failure_category(stderr.split("\n")[0])


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        from synapse_ref.agent import bash_tool

        with swapped(bash_tool, "_failure_category", first_line_category):
            return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sj_bash_category_first_line"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
