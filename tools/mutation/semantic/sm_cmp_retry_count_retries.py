"""``compactRetryCount`` is taken as the number of retries after the first attempt: the port loops
``for (attempt = 0; attempt <= retryCount; attempt++)`` ("retry three times"), where the original's
count is the number of attempts in total (``attempt <= retryCount`` from 1).  A failing summary model
is asked four times instead of three per compaction, with one more wait, and ``SYNAPSE_COMPACT_RETRY_COUNT=1``
(one attempt, no retry) still retries once.

Pattern: off-by-one in a count (attempts vs retries); an example where the model fails once and then
answers agrees with both.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "off-by-one in a count"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def __init__(self, storage: Any, llm: Any, *, retry_count: int, **options: Any) -> None:
        super().__init__(storage, llm, retry_count=retry_count + 1, **options)


class Mutant(CompactorMutant):
    name = "semantic-sm_cmp_retry_count_retries"
    compactor = Compactor


implementation = Mutant
