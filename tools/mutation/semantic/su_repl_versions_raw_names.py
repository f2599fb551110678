"""``/skills`` lists the version directories by the names the language's directory listing gives,
``entry.name``, for the original's ``readdirSync``.  Python hands a name that is not UTF-8 over as text
holding lone surrogates (one per undecodable byte), Node and bun as text holding one U+FFFD per invalid
sequence: the two agree on every name that is valid UTF-8, which is every name a test usually makes, and
the surrogates then reach the terminal, or a JSON reply, as bytes nothing can print.  (The reference
itself listed them so; REPL-061 pins the original's reading.)

Pattern: two rules that agree on the easy inputs; every example name is valid UTF-8.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "directory names read as the language gives them, not as Node decodes them"


def name_as_listed(name: str) -> str:
    return name


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "_shown_name", name_as_listed):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-su_repl_versions_raw_names"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
