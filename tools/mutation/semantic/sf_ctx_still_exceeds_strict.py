"""``stillExceedsThreshold`` is ``currentTokens > offloadThreshold``: the port words it "over the
threshold", where the offload itself starts when the history *reaches* the threshold (``>=``), so a
history left at exactly the threshold counts as fine and the orchestrator does not compact it.

Pattern: ``>`` vs ``>=`` on one of two comparisons of one threshold; the examples end above or below it.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("context",)
PATTERN = "boundary tested at one side only"
BASELINE = "_baseline_orchestrator"


class Manager(Delegate):
    def __init__(self, inner: Any, threshold: int) -> None:
        super().__init__(inner)
        self._mut_threshold = threshold

    def offload_if_needed(self, messages: list[Any]) -> Any:
        result = self._inner.offload_if_needed(messages)
        return replace_record(result, still_exceeds_threshold=result.current_tokens > self._mut_threshold)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_ctx_still_exceeds_strict"

    def context_manager(self, storage: Any, *, offload_threshold: int, **options: Any) -> Any:
        inner = super().context_manager(storage, offload_threshold=offload_threshold, **options)
        return Manager(inner, offload_threshold)

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        # The self-contained orchestrator builds its manager through context_manager() above.
        return Orchestrator(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
