"""The compaction a step triggers is given the history as it was before the offload: the port calls
``compactor.compact(history)`` with the step's input, where the original compacts ``currentMessages``,
the offloaded history.  When a result offloaded in this step lies in the tail the compaction keeps (a
short history, a scan ratio of 1), the tail keeps the long inline result and the cleanup deletes its
now unreferenced offload file: the offload of that step is undone and the context stays as large.

Pattern: two versions of one value (before and after a transformation), the stale one used; in every
example the kept tail holds no result offloaded in the same step.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import orchestrator as orchestrator_module
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("context",)
PATTERN = "stale value used after a transformation"


class Orchestrator(Delegate):
    async def offload_if_needed(self, history: Any, offload_dir: Any, **options: Any) -> Any:
        original = orchestrator_module._compact

        async def compact_history(compactor: Any, _messages: Any, persist: Any) -> Any:
            return await original(compactor, list(history), persist)

        with swapped(orchestrator_module, "_compact", compact_history):
            return await self._inner.offload_if_needed(history, offload_dir, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-sm_orch_compact_pre_offload_history"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return Orchestrator(super().context_orchestrator(llm, **options))


implementation = Mutant
