"""A command that succeeds but wrote a "command not found" or usage line to its error output carries a
``failureCategory``: the port classifies the error output before it looks at the exit code and puts
the category in every result's extras, where the original classifies only failed commands (a
successful ``ToolOk`` has no extras), so a script whose optional step is missing (``cmd || true``)
is reported as a misuse of the tools.

Pattern: an input carrying two things (the exit code and the error output) read by one rule; every
successful example's error output is empty or names no category.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent.bash_tool import _failure_category, _outcome
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "two inputs read by one rule"


def classified_outcome(command: str, run: Any) -> Any:
    outcome = _outcome(command, run)
    category = _failure_category(run.stderr)
    if run.exit_code == 0 and category != "execution_error":
        return dataclasses.replace(outcome, extras={"failureCategory": category})
    return outcome


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        from synapse_ref.agent import bash_tool

        with swapped(bash_tool, "_outcome", classified_outcome):
            return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sj_bash_category_on_success"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
