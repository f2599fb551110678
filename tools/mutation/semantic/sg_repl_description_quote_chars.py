"""``/skills`` strips every quote character from both ends of a description (``value.strip("\\"'")``,
``replace(/^["']+|["']+$/g, "")``), where the original removes one pair of quotes only when the same quote
wraps the whole value: ``Run "make test"`` is listed as ``Run "make test`` and ``'lint' then format`` as
``lint' then format``.

Pattern: two rules agree on the examples (every quoted example description is wrapped whole in one pair
of quotes, and no unquoted one begins or ends with a quote).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"


def strip_quote_characters(value: str) -> str:
    return value.strip().strip("\"'")


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "strip_wrapping_quotes", strip_quote_characters):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-sg_repl_description_quote_chars"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
