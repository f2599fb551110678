"""A failed command whose error output has both a usage message and a missing-command line is called
``invalid_usage``: the port tests the usage hints first, where the original tests "command not found"
(and "unknown tool", "unknown command") first.

Pattern: precedence between two rules that never meet in the examples; each example's stderr carries
the keywords of one category only.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "precedence between two rules"

USAGE = (
    "usage:",
    "requires a number argument",
    "must be a non-negative number",
    "unexpected argument:",
    "invalid parameters",
)


def error_output(output: str) -> str:
    """The ``[stderr]`` part of a result's output (the hint that may follow names no keyword)."""
    return output.partition("[stderr]\n")[2]


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        result = await self._inner.handle(tool_call)
        extras = dict(getattr(result, "extras", None) or {})
        if not result.is_error or extras.get("failureCategory") != "command_not_found":
            return result
        if result.brief != "Bash command failed":
            return result
        if any(hint in error_output(str(result.output)).lower() for hint in USAGE):
            return replace_record(result, extras={**extras, "failureCategory": "invalid_usage"})
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-sb_bash_category_usage_first"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
