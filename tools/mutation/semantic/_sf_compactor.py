"""An adapter whose compactor is a subclass of the reference's, reached by the orchestrator too.

A compactor mutant overrides one method of ``ContextCompactor``; the self-contained orchestrator of
``_orchestrator`` builds its compactor through ``context_compactor()``, so the scenarios that compact
through the orchestrator meet the mutant as well (their control is ``_baseline_orchestrator``).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._orchestrator import Orchestrator


class CompactorMutant(ReferenceImplementation):
    compactor: type[ContextCompactor] = ContextCompactor

    def context_compactor(
        self,
        storage: Any,
        llm: Any,
        *,
        token_counter: Any = None,
        preserve_count: int = 5,
        target_tokens: int = 8000,
        retry_count: int = 3,
        model: str | None = None,
        sleep: Any = None,
    ) -> Any:
        return self.compactor(
            storage,
            llm,
            token_counter=token_counter,
            preserve_count=preserve_count,
            target_tokens=target_tokens,
            retry_count=retry_count,
            model=model,
            sleep=sleep,
        )

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return Orchestrator(self, llm, super().context_orchestrator(llm, **options), **options)
