"""``/compact`` reports a successful compaction that freed no tokens as done ("释放 0 tokens") instead of
"无需压缩": the check reads ``freed < 0`` where the original has ``freed <= 0``.

Pattern: a boundary tested only at one side; a compaction that frees nothing (the history is already
short) is exactly the boundary.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "boundary tested at one side only"
DONE = "✅ 压缩完成：{previous:,} → {current:,} tokens\n释放 {freed:,} tokens，删除 {files} 个卸载文件"


class Commands(Delegate):
    def __init__(self, inner: Any, runner: Any) -> None:
        super().__init__(inner)
        self._mut_runner = runner

    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        runner = self._mut_runner
        if line.strip().lower() != "/compact" or not callable(getattr(runner, "force_compact", None)):
            return outcome
        last = getattr(runner, "_mut_last_compact", None)
        if last is not None and last.success and last.freed_tokens == 0:
            text = DONE.format(
                previous=last.previous_tokens,
                current=last.current_tokens,
                freed=0,
                files=len(last.deleted_files),
            )
            return type(outcome)(True, text) if hasattr(type(outcome), "__dataclass_fields__") else outcome
        return outcome


class Recording(Delegate):
    """The runner, remembering the last compaction result the command saw."""

    async def force_compact(self) -> Any:
        result = await self._inner.force_compact()
        self._mut_last_compact = result
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-repl_compact_zero_freed"

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        recording = Recording(runner) if runner is not None else None
        return Commands(super().repl_commands(runner=recording, **options), recording)


implementation = Mutant
