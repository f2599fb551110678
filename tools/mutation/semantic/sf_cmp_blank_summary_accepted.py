"""A summary made only of whitespace is accepted: the port checks ``if (!text)`` where the original
counts a reply without visible text as an empty response (``!text.trim()``) and tries again, so the
history is replaced by a ``[Compressed History]`` message that says nothing.

Pattern: empty vs blank string; the examples' empty replies have no text at all.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.context.compactor import (
    ContextCompactor,
    EmptySummaryError,
    _reply_text,
    load_summary_prompt,
    logger,
)
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "empty string vs blank string"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    async def generate_summary(self, messages: list[Any]) -> str:
        max_tokens = max(math.ceil(self.target_tokens * 1.2), 1)
        system_prompt = load_summary_prompt(self.target_tokens)
        client = self.summary_client()
        attempt = 1
        while True:
            try:
                reply = await client.generate(system_prompt, messages, [], max_tokens=max_tokens)
                text = _reply_text(reply.message)
                if not text:
                    raise EmptySummaryError("API returned an empty response")
                return text
            except Exception as exc:
                logger.warning("Compact summary attempt %d failed: %s", attempt, exc)
                if attempt >= self.retry_count:
                    raise
            await self._sleep(0.1 * attempt)
            attempt += 1


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_blank_summary_accepted"
    compactor = Compactor


implementation = Mutant
