"""The toolset matches the tool name without regard to case: the port looks tools up with
``name.toLowerCase() === "bash"``, so a call to ``bash`` (or ``BASH``) runs the command, where the
original's tool map knows ``Bash`` only and answers any other name with ``Unknown tool`` and its
correction.

Pattern: ids compared case-insensitively; every example of an unknown tool (``Read``, ``Grep``) differs
from ``Bash`` in more than case.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "ids compared case-insensitively"


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        name = tool_call.get("name")
        if isinstance(name, str) and name != "Bash" and name.lower() == "bash":
            tool_call = {**tool_call, "name": "Bash"}
        return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sc_bash_tool_name_casefold"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
