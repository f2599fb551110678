"""A blank summary is told with Python's ``str.strip()``: the port rejects the model's reply as empty
when nothing is left after ``text.strip()`` (Go: ``strings.TrimSpace``), where the rule is JavaScript's
``trim()``.  A reply that is only a byte-order mark (U+FEFF, which a model streaming through a
re-encoding proxy can produce) is then accepted as the summary and the history is replaced by an
empty ``[Compressed History]``, where the rule counts it as a failed attempt and asks again; a reply
of U+001C is refused where the rule keeps it.

Pattern: white space of the wrong language; every blank example is spaces.
"""

from __future__ import annotations

import math
from typing import Any

from synapse_ref.context import compactor as compactor_module
from synapse_ref.context.compactor import ContextCompactor, EmptySummaryError, load_summary_prompt
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "white space of the wrong language"
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
                text = compactor_module._reply_text(reply.message)
                if not text.strip():
                    raise EmptySummaryError("API returned an empty response")
                return text
            except Exception as exc:
                compactor_module.logger.warning("Compact summary attempt %d failed: %s", attempt, exc)
                if attempt >= self.retry_count:
                    raise
            await self._sleep(0.1 * attempt)
            attempt += 1


class Mutant(CompactorMutant):
    name = "semantic-sq_cmp_blank_summary_python_strip"
    compactor = Compactor


implementation = Mutant
