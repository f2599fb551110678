"""A context compactor whose restore limit (``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES``) is read by another
parser, for the mutants that misread that one setting; everything else is the reference's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator
from tools.mutation.semantic._support import Delegate, swapped

NAME = "SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES"
DEFAULT = 1024 * 1024


class Compactor(Delegate):
    def __init__(self, inner: Any, limit: Callable[[], int]) -> None:
        super().__init__(inner)
        self._mut_limit = limit

    async def compact(self, messages: list[Any], **options: Any) -> Any:
        from synapse_ref.context import compactor

        with swapped(compactor, "restore_max_bytes", self._mut_limit):
            return await self._inner.compact(messages, **options)


class RestoreLimitMutant(ReferenceImplementation):
    """Compactors, also those the orchestrator builds, read the restore limit with ``limit``."""

    @staticmethod
    def limit() -> int:
        raise NotImplementedError

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return Compactor(super().context_compactor(storage, llm, **options), self.limit)

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return Orchestrator(self, llm, super().context_orchestrator(llm, **options), **options)
