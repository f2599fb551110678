"""The compaction retry doubles its wait after each failed attempt (``0.1 * 2 ** (attempt - 1)``): the
port writes the exponential backoff every HTTP client uses, where the original waits ``100 * attempt``
milliseconds.  After the first and the second failed attempt both wait 0.1 s and 0.2 s; only a third
retry (0.3 s against 0.4 s) tells them apart.

Pattern: two rules that agree on the examples; every example allows at most three attempts.
"""

from __future__ import annotations

import asyncio
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("context", "agent", "repl")
PATTERN = "two rules agree on the examples"


def doubling(sleep: Any) -> Any:
    """The reference asks for ``0.1 * attempt`` seconds; the port waits ``0.1 * 2 ** (attempt - 1)``."""
    real = sleep if sleep is not None else asyncio.sleep

    async def pause(seconds: float) -> None:
        attempt = max(1, round(seconds / 0.1))
        await real(0.1 * 2 ** (attempt - 1))

    return pause


class Mutant(ReferenceImplementation):
    name = "semantic-so_cmp_backoff_doubling"

    def context_compactor(self, storage: Any, llm: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().context_compactor(storage, llm, sleep=doubling(sleep), **options)

    def context_orchestrator(self, llm: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().context_orchestrator(llm, sleep=doubling(sleep), **options)

    def agent_runner(self, llm: Any, toolset: Any, *, sleep: Any = None, **options: Any) -> Any:
        return super().agent_runner(llm, toolset, sleep=doubling(sleep), **options)


implementation = Mutant
