"""``/compact`` reports a compaction that made the history larger as done ("释放 -120 tokens"): the port
tests ``if (freedTokens === 0)`` for the "nothing to compact" answer ("nothing was freed"), where the
original's ``freedTokens <= 0`` also covers a summary longer than what it replaced (a short history the
model summarised verbosely).  The user is told tokens were freed when the context grew.

Pattern: a boundary tested at one side only; the examples free a positive count or exactly zero.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("repl",)
PATTERN = "boundary tested at one side only"


async def compact_command(runner: Any) -> str:
    force_compact = getattr(runner, "force_compact", None)
    if not callable(force_compact):
        return commands.UNAVAILABLE.format("Compact")
    try:
        result = await force_compact()
    except Exception as error:
        return commands.COMPACT_ERROR.format(reason=str(error) or type(error).__name__)
    if not result.success:
        return commands.COMPACT_FAILED_KEPT
    if result.freed_tokens == 0:
        return commands.COMPACT_NOOP
    return commands.COMPACT_DONE.format(
        previous=result.previous_tokens,
        current=result.current_tokens,
        freed=result.freed_tokens,
        files=len(result.deleted_files),
    )


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with swapped(commands, "compact_command", compact_command):
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_repl_compact_negative_freed_done"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
