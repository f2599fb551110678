"""The restore limit counts characters: the port reads the offload file as text and refuses it when
``content.length > limit``, where ``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` is a number of bytes checked
before reading, so a file of 34 CJK characters (102 bytes) passes a 100-byte limit.

Pattern: counting characters where bytes are meant; every example file is ASCII.
"""

from __future__ import annotations

from synapse_ref.context.compactor import ContextCompactor, UnrestorableOffloadError
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "length limit checked only on ASCII"
BASELINE = "_baseline_orchestrator"

UTF8_MAX_BYTES = 4


class Compactor(ContextCompactor):
    def read_offloaded_file(self, resolved: str, limit: int) -> str:
        text = super().read_offloaded_file(resolved, limit * UTF8_MAX_BYTES)
        if len(text) > limit:
            raise UnrestorableOffloadError(
                f"{len(text)} characters, over the {limit}-character restore limit"
            )
        return text


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_restore_limit_chars"
    compactor = Compactor


implementation = Mutant
