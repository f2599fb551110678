"""The summary request's ``maxTokens`` is ``round(targetTokens * 1.2)`` instead of ``ceil``: the usual
way to turn a float into a token count.

Pattern: a ratio applied to a value that is always a whole multiple (8000 * 1.2 = 9600) cannot tell
round from ceil; a target such as 1001 (1201.2) can.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.settings import ContextSettings
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "two rules agree on the examples (ratio on whole multiples)"


class RoundingClient(Delegate):
    def __init__(self, inner: Any, target: int) -> None:
        super().__init__(inner)
        self._mut_target = target

    def with_model(self, model: str) -> Any:
        return RoundingClient(self._inner.with_model(model), self._mut_target)

    async def generate(self, system_prompt: str, messages: Any, tools: Any = (), **options: Any) -> Any:
        if options.get("max_tokens") == max(math.ceil(self._mut_target * 1.2), 1):
            options["max_tokens"] = max(round(self._mut_target * 1.2), 1)
        return await self._inner.generate(system_prompt, messages, tools, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-cmp_max_tokens_round"

    def context_compactor(self, storage: Any, llm: Any, *, target_tokens: int = 8000, **options: Any) -> Any:
        return super().context_compactor(
            storage, RoundingClient(llm, target_tokens), target_tokens=target_tokens, **options
        )

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        target = ContextSettings.from_env().compact_target_tokens
        return super().context_orchestrator(RoundingClient(llm, target), **options)


implementation = Mutant
