"""``/tools`` removes every line of the catalog that starts with ``Found <digits>``, not only the first:
the port writes the pattern with the multi-line flag (``re.sub(r"^Found \\d+.*\\n\\n?", "", text,
flags=re.M)``, or ``/.../gm``), where the original's ``/^Found \\d+.*\\n\\n?/`` matches the start of the
listing once.  A tool whose description runs over several lines and has a line starting with
``Found 2 ...`` loses that line.

Pattern: input carrying two things rendered by different rules (the count line and the body); the example
bodies have no line at column 0.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "input carrying two things rendered by different rules"

_COUNT_LINES = re.compile(r"^Found \d+.*\n\n?", re.MULTILINE)


class Catalog(Delegate):
    def format_search_result(self) -> str:
        return _COUNT_LINES.sub("", str(self._inner.format_search_result()))


class Mutant(ReferenceImplementation):
    name = "semantic-se_repl_tools_count_line_anywhere"

    def repl_commands(self, *, tool_catalog: Any = None, **options: Any) -> Any:
        catalog = Catalog(tool_catalog) if tool_catalog is not None else None
        return super().repl_commands(tool_catalog=catalog, **options)


implementation = Mutant
