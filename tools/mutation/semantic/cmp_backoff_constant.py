"""The compaction retry waits a constant 0.1 s before every new attempt instead of ``0.1 * attempt``: the
linear backoff read as "a short pause between attempts".

Pattern: two rules that agree on the examples; after the first failed attempt both wait 0.1 s, only a
second retry (0.2 s) tells them apart.
"""

from __future__ import annotations

import asyncio
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("context", "agent", "repl")
PATTERN = "two rules agree on the examples (one event per round)"


def constant(sleep: Any) -> Any:
    real = sleep if sleep is not None else asyncio.sleep

    async def pause(_seconds: float) -> None:
        await real(0.1)

    return pause


class Mutant(ReferenceImplementation):
    name = "semantic-cmp_backoff_constant"

    def context_compactor(self, storage: Any, llm: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().context_compactor(storage, llm, sleep=constant(sleep), **options)

    def context_orchestrator(self, llm: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().context_orchestrator(llm, sleep=constant(sleep), **options)

    def agent_runner(self, llm: Any, toolset: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().agent_runner(llm, toolset, sleep=constant(sleep), **options)


implementation = Mutant
