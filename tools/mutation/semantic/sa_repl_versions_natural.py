"""``/skills`` lists a skill's versions in natural order, newest first (``localeCompare`` with
``numeric: true``), where the original sorts the directory names as strings, descending: ``v9``
comes before ``v10``.

Pattern: sort by one key vs another when the data agree: date-stamped names of one width sort the
same either way.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "order by another key"
VERSIONS = "    versions: "


def natural_key(name: str) -> list[tuple[int, int | str]]:
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", name) if part]


def resort(line: str) -> str:
    if not line.startswith(VERSIONS) or line == VERSIONS + "(none)":
        return line
    names = line[len(VERSIONS) :].split(", ")
    return VERSIONS + ", ".join(sorted(names, key=natural_key, reverse=True))


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        if line.strip().lower() not in ("/skills", "/skill:list") or not outcome.output:
            return outcome
        text = "\n".join(resort(row) for row in outcome.output.split("\n"))
        return type(outcome)(outcome.handled, text, outcome.exit)


class Mutant(ReferenceImplementation):
    name = "semantic-sa_repl_versions_natural"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
