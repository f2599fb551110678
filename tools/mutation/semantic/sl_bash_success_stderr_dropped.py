"""A command that succeeds with nothing on stdout is reported as having no output, whatever it wrote to
stderr: the port tests ``!stdout.trim()`` for the "(Command executed successfully with no output)" text
where the original tests the combined output, so the ``[stderr]`` part is dropped.  ``git clone``,
``curl -sS``, ``npm ci`` and many build tools print their progress and warnings on stderr and succeed:
the model is told they said nothing.

Pattern: an input carrying two things (stdout and stderr) judged on one of them; every example success
prints on stdout or nowhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent import bash_tool
from synapse_ref.agent.bash_tool import NO_OUTPUT, _outcome
from tools.mutation.semantic._support import Delegate, replace_record, swapped

AREAS = ("agent",)
PATTERN = "input carrying two things"


def stdout_only_outcome(command: str, run: Any) -> Any:
    outcome = _outcome(command, run)
    if run.exit_code == 0 and not run.stdout.strip():
        return replace_record(outcome, output=NO_OUTPUT)
    return outcome


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        with swapped(bash_tool, "_outcome", stdout_only_outcome):
            return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sl_bash_success_stderr_dropped"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
