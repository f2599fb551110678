"""A repeated ``--continue`` option keeps only its last value: options parsed into a name -> value map,
where a second occurrence overwrites the first instead of adding to the list.

Pattern: precedence between two sources of one value; the original accumulates every ``--continue``,
which only a command giving the option twice can tell.
"""

from __future__ import annotations

import shlex
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "precedence between two sources of one value"


def keep_last(words: list[str], option: str) -> list[str]:
    pairs: list[list[str]] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == option and index + 1 < len(words):
            pairs.append([word, words[index + 1]])
            index += 2
        else:
            pairs.append([word])
            index += 1
    hits = [n for n, p in enumerate(pairs) if p[0] == option or p[0].startswith(option + "=")]
    drop = set(hits[:-1])
    return [w for n, p in enumerate(pairs) if n not in drop for w in p]


class Handler(Delegate):
    def execute(self, command: str) -> Any:
        try:
            words = shlex.split(command)
        except ValueError:
            return self._inner.execute(command)
        return self._inner.execute(shlex.join(keep_last(words, "--continue")))


class Mutant(ReferenceImplementation):
    name = "semantic-skills_continue_last_wins"

    def skill_command_handler(self, manager: Any) -> Any:
        return Handler(super().skill_command_handler(manager))


implementation = Mutant
