"""``--merge=a:b,c:d`` merges only ``a`` into ``b``: the value is split at the first ``:`` and the rest
after the comma is dropped, as if one merge per option were all anyone asks for.

Pattern: one event per round; a single option carrying several ``source:target`` pairs.
"""

from __future__ import annotations

import shlex
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "one event per round"


def first_pair(value: str) -> str:
    return value.split(",")[0]


class Handler(Delegate):
    def execute(self, command: str) -> Any:
        try:
            words = shlex.split(command)
        except ValueError:
            return self._inner.execute(command)
        out: list[str] = []
        previous = ""
        for word in words:
            if word.startswith("--merge="):
                word = "--merge=" + first_pair(word.removeprefix("--merge="))
            elif previous == "--merge":
                word = first_pair(word)
            out.append(word)
            previous = word
        return self._inner.execute(shlex.join(out))


class Mutant(ReferenceImplementation):
    name = "semantic-skills_merge_first_pair"

    def skill_command_handler(self, manager: Any) -> Any:
        return Handler(super().skill_command_handler(manager))


implementation = Mutant
