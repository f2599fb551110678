"""A failed command is classified by its whole output (standard output and ``[stderr]`` together)
instead of its error output alone: the port reads the text the model will see, so a program that
prints its ``Usage:`` line on stdout counts as a misuse (and gets the ``--help`` hint appended).

Pattern: an input carrying two things read by one rule; every example puts its keywords on stderr.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "input carrying two things"

NOT_FOUND = ("unknown tool", "command not found", "unknown command")
USAGE = (
    "usage:",
    "requires a number argument",
    "must be a non-negative number",
    "unexpected argument:",
    "invalid parameters",
)


def classify(text: str) -> str:
    lowered = text.lower()
    if any(hint in lowered for hint in NOT_FOUND):
        return "command_not_found"
    if any(hint in lowered for hint in USAGE):
        return "invalid_usage"
    return "execution_error"


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        result = await self._inner.handle(tool_call)
        extras = dict(getattr(result, "extras", None) or {})
        if not result.is_error or result.brief != "Bash command failed":
            return result
        if extras.get("failureCategory") != "execution_error":
            return result
        category = classify(str(result.output))
        if category == "execution_error":
            return result
        hint = str(result.message).partition("\n\n")[2]
        output = "\n\n".join(part for part in (str(result.output), hint) if part)
        return replace_record(result, output=output, extras={**extras, "failureCategory": category})


class Mutant(ReferenceImplementation):
    name = "semantic-sb_bash_category_from_output"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
