"""The compaction model is compared with the main model without case: the port normalises model names
(``toLowerCase()``, as it does to look up prices) before deciding whether to switch, where the original
switches whenever the trimmed ``SYNAPSE_COMPACT_MODEL`` differs from the client's model name, so a
compaction model that differs only in case (``Main-Model``) is never used.

Pattern: ids compared case-insensitively; every example compaction model differs in more than case.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "ids compared case-insensitively"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def summary_client(self) -> Any:
        model = (self.model or "").strip()
        with_model = getattr(self.llm, "with_model", None)
        if model and model.lower() != str(self.llm.model_name).lower() and callable(with_model):
            return with_model(model)
        return self.llm


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_model_casefold"
    compactor = Compactor


implementation = Mutant
