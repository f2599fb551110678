"""``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` is read by a ``parseInt`` the port writes with Python's
``\\s*([+-]?)(\\d+)`` and ``int()``: ``１００`` (full-width digits) limits restored files to 100 bytes in the
port, where ``parseInt`` reads NaN and the default of 1 MiB applies, so a 101-byte file is left as
its reference instead of being restored.

Pattern: a number read the way Python reads it; every example value is ASCII.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context import settings
from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant
from tools.mutation.semantic._support import python_parse_int, swapped

AREAS = ("context",)
PATTERN = "a number read the way Python reads it"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def restore_offloaded_content(self, messages: list[Any]) -> list[Any]:
        with swapped(settings, "parse_int", python_parse_int):
            return super().restore_offloaded_content(messages)


class Mutant(CompactorMutant):
    name = "semantic-ss_cmp_restore_limit_python_digits"
    compactor = Compactor


implementation = Mutant
