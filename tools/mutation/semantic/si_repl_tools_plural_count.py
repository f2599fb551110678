"""``/tools`` strips the catalog's count line only when it says ``tools``: the port writes the pattern after
the line it saw (``/^Found \\d+ tools:\\n\\n?/``), where the original's ``/^Found \\d+.*\\n\\n?/`` takes
any count line.  A catalog of a single tool starts with ``Found 1 tool:`` (the catalog writes the singular
for one), which stays under the ``Available Tools`` header.

Pattern: singular vs plural when the count is never 1: every example catalog lists two or more tools.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "singular vs plural"

_COUNT_LINE = re.compile(r"Found \d+.*\n\n?")
_PLURAL_COUNT_LINE = re.compile(r"Found \d+ tools:\n\n?")


class Catalog(Delegate):
    def format_search_result(self) -> str:
        text: str = self._inner.format_search_result()
        # The reference removes any count line; keep the ones this port's pattern misses by doubling them
        # (one copy is removed, one stays).
        found = _COUNT_LINE.match(text)
        if found and not _PLURAL_COUNT_LINE.match(text):
            return found.group(0) + text
        return text


class Mutant(ReferenceImplementation):
    name = "semantic-si_repl_tools_plural_count"

    def repl_commands(self, *, tool_catalog: Any = None, **options: Any) -> Any:
        catalog = Catalog(tool_catalog) if tool_catalog is not None else None
        return super().repl_commands(tool_catalog=catalog, **options)


implementation = Mutant
