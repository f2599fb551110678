"""``/tools`` strips the catalog's ``Found N tools`` line only when N is a single digit: the pattern
written as ``Found \\d tools`` against a catalog of a few tools.

Pattern: a count that never reaches the case that matters (ten tools or more) cannot tell the rules.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"


class Catalog(Delegate):
    def format_search_result(self) -> str:
        text: str = self._inner.format_search_result()
        # The reference removes any "Found N..." line; keep the ones this port's pattern would miss by
        # doubling them (one copy is removed, one stays).
        found = re.match(r"Found (\d+).*\n\n?", text)
        if found and len(found.group(1)) > 1:
            return found.group(0) + text
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-repl_tools_one_digit_count"

    def repl_commands(self, *, tool_catalog: Any = None, **options: Any) -> Any:
        catalog = Catalog(tool_catalog) if tool_catalog is not None else None
        return super().repl_commands(tool_catalog=catalog, **options)


implementation = Mutant
