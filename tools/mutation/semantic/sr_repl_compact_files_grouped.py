"""``/compact`` groups every number of its report by thousands, the number of deleted offload files too:
the port formats the message with one helper for all its numbers (``f"{n:,}"`` for each placeholder, or
``toLocaleString()`` on each), where the original groups the three token counts and writes the file
count as it is (``deletedFiles.length`` in a template string).  A compaction that removed 1234 offloaded
results reports ``删除 1,234 个卸载文件``.

Pattern: input carrying two things rendered by different rules (token counts grouped, a file count
not); the examples delete a handful of files, where grouping changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import trim
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "input carrying two things rendered by different rules"

_FILES = re.compile(r"删除 (\d+) 个卸载文件")


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        if trim(line).lower() != "/compact" or not outcome.output:
            return outcome
        grouped = _FILES.sub(lambda found: f"删除 {int(found.group(1)):,} 个卸载文件", outcome.output)
        return type(outcome)(outcome.handled, grouped, outcome.exit)


class Mutant(ReferenceImplementation):
    name = "semantic-sr_repl_compact_files_grouped"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
