"""``/skills`` lists a skill's versions with the language's own sort, ``sorted(names, reverse=True)``,
for the original's ``names.sort().reverse()``.  JavaScript's default sort compares UTF-16 code units and
Python's compares code points: they agree on ASCII names (``v9`` before ``v10``) and on most text, but a
character outside the Basic Multilingual Plane (an emoji, stored as a surrogate pair from U+D800) comes
before the characters U+E000..U+FFFF (full-width forms such as ``ｚ`` or ``２``) in JavaScript and after
them in Python, so ``draft-２`` and ``draft-🚀`` are listed the other way round.  (The reference itself
sorted so; REPL-060 pins the original's order.)

Pattern: JavaScript's default sort against code points; every example version name is ASCII.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "JavaScript's default sort against code points"


def code_point_order(names: Iterable[str]) -> list[str]:
    return sorted(names, reverse=True)


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "newest_versions_first", code_point_order):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-st_repl_versions_code_point_order"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
