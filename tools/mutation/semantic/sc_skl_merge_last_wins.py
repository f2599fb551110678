"""A repeated ``--merge`` option keeps only its last value: the port reads the options into a map, so a
second ``--merge`` replaces the first pairs instead of adding to them (``--continue`` was fixed to
accumulate, ``--merge`` was not).

Pattern: keeping the first vs the last of duplicates; every example gives ``--merge`` once, possibly with
several comma-separated pairs, which both rules pass on unchanged.
"""

from __future__ import annotations

import shlex
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "keeping the first vs the last of duplicates"


def keep_last_merge(words: list[str]) -> list[str]:
    groups: list[list[str]] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--merge" and index + 1 < len(words):
            groups.append([word, words[index + 1]])
            index += 2
        else:
            groups.append([word])
            index += 1
    merges = [n for n, g in enumerate(groups) if g[0] == "--merge" or g[0].startswith("--merge=")]
    dropped = set(merges[:-1])
    return [w for n, g in enumerate(groups) if n not in dropped for w in g]


class Handler(Delegate):
    def execute(self, command: str) -> Any:
        try:
            words = shlex.split(command)
        except ValueError:
            return self._inner.execute(command)
        return self._inner.execute(shlex.join(keep_last_merge(words)))


class Mutant(ReferenceImplementation):
    name = "semantic-sc_skl_merge_last_wins"

    def skill_command_handler(self, manager: Any) -> Any:
        return Handler(super().skill_command_handler(manager))


implementation = Mutant
