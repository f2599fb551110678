"""The orchestrator builds its offload storage and compactor once, for the first session directory it
is given: the port creates them lazily with ``this.contextManager ??= new ContextManager(new
OffloadStorage(offloadDir), ...)``, where the reference builds them again when another directory comes.
An orchestrator that outlives its session (the REPL switching sessions with ``/resume``, a long-lived
server serving several sessions) then writes one session's offloaded results into another session's
directory, and a compaction there deletes the first session's files as unreferenced.

Pattern: state set once and never cleared; every example orchestrator serves one directory.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "state kept after one branch"


class Orchestrator(Delegate):
    def _mut_directory(self, offload_dir: Any) -> Any:
        if not offload_dir:
            return offload_dir
        first = getattr(self, "_mut_first", None)
        if first is None:
            self._mut_first = first = offload_dir
        return first

    async def offload_if_needed(self, history: Any, offload_dir: Any, **options: Any) -> Any:
        return await self._inner.offload_if_needed(history, self._mut_directory(offload_dir), **options)

    async def force_compact(self, history: Any, offload_dir: Any, **options: Any) -> Any:
        return await self._inner.force_compact(history, self._mut_directory(offload_dir), **options)


class Mutant(ReferenceImplementation):
    name = "semantic-sl_orch_components_first_dir"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return Orchestrator(super().context_orchestrator(llm, **options))


implementation = Mutant
