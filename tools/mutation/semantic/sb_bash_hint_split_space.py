"""The ``--help`` hint of a failed command names ``command.split(" ")[0]``: the port splits the raw
command at the first space, without trimming it or treating tabs and newlines as separators, so a
command typed with a leading space is hinted as ``Bash(command=" --help")``.

Pattern: an input carrying two things (the command and its surrounding whitespace) read by a rule that
agrees with the right one on every tidy command of the examples.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "two rules agree on the examples"

HINT = 'Next step: run `Bash(command="{command} --help")`'


def raw_first_word(command: str) -> str:
    return command.split(" ")[0]


def tidy_first_word(command: str) -> str:
    words = command.split()
    return words[0] if words else command


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        result = await self._inner.handle(tool_call)
        if not getattr(result, "is_error", False) or tool_call.get("name") != "Bash":
            return result
        import json

        try:
            command = json.loads(str(tool_call.get("arguments") or "{}")).get("command")
        except (ValueError, AttributeError):
            return result
        if not isinstance(command, str):
            return result
        right = HINT.format(command=tidy_first_word(command))
        wrong = HINT.format(command=raw_first_word(command))
        if right == wrong:
            return result
        return replace_record(
            result,
            output=str(result.output).replace(right, wrong),
            message=str(result.message).replace(right, wrong),
        )


class Mutant(ReferenceImplementation):
    name = "semantic-sb_bash_hint_split_space"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
