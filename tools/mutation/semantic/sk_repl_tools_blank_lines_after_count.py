"""``/tools`` drops every blank line after the catalog's count line: the port removes the header with
``/^Found \\d+.*\\n+/`` (or ``.lstrip("\\n")`` after cutting the first line), where the original's
``/^Found \\d+.*\\n\\n?/`` takes the count line and at most one blank line.  A catalog that sets its first
group apart with a second blank line (a section break, a group header printed after one) loses that
break, and the listing no longer looks as the catalog laid it out.

Pattern: two rules agree on the examples; every example catalog has exactly one blank line after its
count line.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"

_EVERY_BLANK_LINE = re.compile(r"\AFound \d+.*\n+")


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "_FOUND_HEADER", _EVERY_BLANK_LINE):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-sk_repl_tools_blank_lines_after_count"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
