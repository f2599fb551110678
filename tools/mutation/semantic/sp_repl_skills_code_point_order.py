"""``/skills`` sorts the skills with the language's plain sort: the port lists the directory and calls
``names.sort()`` (or Python's ``sorted``), which compares code points, where the original lists the
skills of its index, sorted with ``localeCompare``.  Every capitalised name (``Beta``, ``Zeta``) then
comes before every lower-case one, so a team's ``README``-style names stand apart from the rest.

Pattern: two rules agree on the examples; every skill name of the examples is lower case.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"


def code_points(text: str) -> str:
    return text


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "locale_compare_key", code_points):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-sp_repl_skills_code_point_order"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
