"""The compaction model is compared with the current model as it was passed, without trimming: the
port trims ``SYNAPSE_COMPACT_MODEL`` where it reads the environment and trusts every other caller, where
the original's compactor trims the model option itself (``options.model?.trim()``).  A model name with a
trailing space or newline (copied from a config file or a command's output) then differs from the
current model, and the summary is asked from ``with_model("main-model ")``, a model the provider does
not know.

Pattern: white space handled by one of two sources of one value; every example passes the model
through the environment, whose parser trims.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "white space trimmed by one source only"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def summary_client(self) -> Any:
        model = self.model or ""
        with_model = getattr(self.llm, "with_model", None)
        if model and model != self.llm.model_name and callable(with_model):
            return with_model(model)
        return self.llm


class Mutant(CompactorMutant):
    name = "semantic-so_cmp_model_untrimmed"
    compactor = Compactor


implementation = Mutant
