"""A tool result is measured against ``minChars`` without its surrounding white space: the port tests
``content.trim().length <= minChars`` ("blank lines are not worth a file"), where the original measures
the text it is about to save, ``content.length``.  Command output ends with a newline and is often
indented or padded; a result just over the limit only with its trailing newline (or a table padded
with spaces) stays inline although the original offloads it.

Pattern: order of operations (trim before measuring); every example result is well over or well under
the limit, or has no white space at its ends.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import trim
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)
PATTERN = "trim before measuring"
BASELINE = "_baseline_offload"


class TrimmedManager(OffloadManager):
    def too_short(self, text: str) -> bool:
        return len(trim(text)) <= self.min_chars


class Mutant(ReferenceImplementation):
    name = "semantic-sm_ctx_min_chars_trimmed"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return TrimmedManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
