"""A tool message that is already an offload reference but starts with whitespace (``"\\nTool result is
at: <path>"``) is offloaded again: the port tests ``text.startsWith("Tool result is at:")`` where the
original trims the start first, so the reference is written to a new file and replaced by a reference
to that file.

Pattern: leading whitespace / a newline in front of a marker; every example reference starts at the
first character.
"""

from __future__ import annotations

from tools.mutation.semantic._baseline_offload import Baseline
from tools.mutation.semantic._support import OFFLOAD_PREFIX, OffloadManager

AREAS = ("context",)
PATTERN = "leading whitespace before a marker"
BASELINE = "_baseline_offload"


class UntrimmedManager(OffloadManager):
    def is_reference(self, text: str) -> bool:
        return text.startswith(OFFLOAD_PREFIX)


class Mutant(Baseline):
    name = "semantic-sb_ctx_offload_ref_untrimmed"
    manager = UntrimmedManager


implementation = Mutant
