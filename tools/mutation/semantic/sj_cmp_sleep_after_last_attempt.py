"""The compaction waits after its last failed attempt too: the port's retry loop sleeps at the end of
every failed iteration (``catch { await sleep(0.1 * attempt) }``) and tests the attempt count only at
the top of the next one, where the original gives up at once when no attempt is left, so a failing
model costs ``0.1 * retryCount`` seconds more and the sleep port records one wait too many.

Pattern: "nothing is left behind" asserted after one branch only; the waits between attempts are
checked when a later attempt succeeds, the wait after the final failure is not.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from synapse_ref.context.compactor import (
    ContextCompactor,
    EmptySummaryError,
    _reply_text,
    load_summary_prompt,
)
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "state checked after one branch only"
BASELINE = "_baseline_orchestrator"

logger = logging.getLogger("synapse.context.compactor")


class Compactor(ContextCompactor):
    async def generate_summary(self, messages: list[Any]) -> str:
        max_tokens = max(math.ceil(self.target_tokens * 1.2), 1)
        system_prompt = load_summary_prompt(self.target_tokens)
        client = self.summary_client()
        failure: Exception | None = None
        for attempt in range(1, self.retry_count + 1):
            try:
                reply = await client.generate(system_prompt, messages, [], max_tokens=max_tokens)
                text = _reply_text(reply.message)
                if not text.strip():
                    raise EmptySummaryError("API returned an empty response")
                return text
            except Exception as exc:
                logger.warning("Compact summary attempt %d failed: %s", attempt, exc)
                failure = exc
                await self._sleep(0.1 * attempt)
        assert failure is not None
        raise failure


class Mutant(CompactorMutant):
    name = "semantic-sj_cmp_sleep_after_last_attempt"
    compactor = Compactor


implementation = Mutant
