"""``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` is read with ``Math.floor(Number(value))``: the port reads a
byte count the way it reads a size (``Number`` takes ``1e6`` and ``0x100000``), where every integer
setting of the system is read as ``parseInt(value, 10)`` reads it.  The two agree on plain digits, on
text that is no number and on zero or negative values; ``1e2`` is 100 bytes to the port and 1 byte to
``parseInt``, and ``100kb`` is the default to the port and 100 bytes to ``parseInt``.

Pattern: two parsers that agree on the examples; every example value is plain digits or not a number.
"""

from __future__ import annotations

import math
import os
from typing import Any

from synapse_ref.context import compactor as compactor_module
from synapse_ref.context.compactor import (
    DEFAULT_RESTORE_MAX_BYTES,
    RESTORE_MAX_BYTES_ENV,
    ContextCompactor,
)
from synapse_ref.js_text import number
from tools.mutation.semantic._sf_compactor import CompactorMutant
from tools.mutation.semantic._support import swapped

AREAS = ("context",)
PATTERN = "two parsers agree on the examples"
BASELINE = "_baseline_orchestrator"


def number_limit() -> int:
    value = number(os.environ.get(RESTORE_MAX_BYTES_ENV, ""))
    limit = math.floor(value) if math.isfinite(value) else 0
    return limit if limit > 0 else DEFAULT_RESTORE_MAX_BYTES


class Compactor(ContextCompactor):
    def restore_offloaded_content(self, messages: list[Any]) -> list[Any]:
        with swapped(compactor_module, "restore_max_bytes", number_limit):
            return super().restore_offloaded_content(messages)


class Mutant(CompactorMutant):
    name = "semantic-so_cmp_restore_limit_number"
    compactor = Compactor


implementation = Mutant
