"""An offloaded result is restored through a text-mode read with universal newlines: the port's
``Path(file).read_text(encoding="utf-8")`` (Python's ``open()`` default) turns ``\\r\\n`` and a lone
``\\r`` into ``\\n``, where the original's ``readFileSync(path, "utf-8")`` gives the text as it was saved.
The summary model then sees HTTP headers, Windows files and progress bars other than the tool printed
them.

Pattern: text read by the host language's default; every example file restored has ``\\n`` line ends
or none.
"""

from __future__ import annotations

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "text read by the host language's default"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def read_offloaded_file(self, resolved: str, limit: int) -> str:
        text = super().read_offloaded_file(resolved, limit)
        return text.replace("\r\n", "\n").replace("\r", "\n")


class Mutant(CompactorMutant):
    name = "semantic-so_cmp_restore_universal_newlines"
    compactor = Compactor


implementation = Mutant
