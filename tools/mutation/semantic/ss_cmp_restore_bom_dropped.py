"""An offloaded result is restored with ``encoding="utf-8-sig"``, the codec a Python port reaches for
to read "any UTF-8 file, Windows ones too": it drops a byte-order mark at the start, where the
original's ``readFileSync(path, "utf-8")`` keeps it as U+FEFF.  A tool's output that began with a BOM
(a file ``cat`` printed, a PowerShell script's output) reaches the summary model one character short,
and no longer as the tool printed it.

Pattern: a file read the way Python reads it; no example offload file starts with a byte-order mark.
"""

from __future__ import annotations

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "a file read the way Python reads it"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def read_offloaded_file(self, resolved: str, limit: int) -> str:
        text = super().read_offloaded_file(resolved, limit)
        return text.removeprefix("\ufeff")


class Mutant(CompactorMutant):
    name = "semantic-ss_cmp_restore_bom_dropped"
    compactor = Compactor


implementation = Mutant
