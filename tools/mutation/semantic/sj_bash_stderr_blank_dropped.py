"""Error output made only of white space is left out of the Bash result: the port appends the
``[stderr]`` part under ``if (stderr.trim())`` to spare the model an empty section, where the original
appends it whenever there is error output (``if (stderr)``), so a command that writes a lone newline or
spaces to stderr is reported as "executed successfully with no output".

Pattern: empty vs blank; the examples' error outputs are empty or hold visible text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "empty vs blank"


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        import dataclasses

        from synapse_ref.agent import bash_tool

        reference = bash_tool._outcome

        def outcome(command: str, run: Any) -> Any:
            if run.stderr and not run.stderr.strip():
                run = dataclasses.replace(run, stderr="")
            return reference(command, run)

        with swapped(bash_tool, "_outcome", outcome):
            return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sj_bash_stderr_blank_dropped"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
