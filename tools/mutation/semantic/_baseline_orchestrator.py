"""The reference adapter with the self-contained orchestrator of ``_orchestrator`` and no rule changed.

Not a mutant: it must pass the context features, which shows that the orchestrator mutants are killed
by their changed rule::

    pytest features/context --synapse-impl=tools.mutation.semantic._baseline_orchestrator
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)


class Baseline(ReferenceImplementation):
    name = "semantic-baseline-orchestrator"
    orchestrator = Orchestrator

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return self.orchestrator(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Baseline
