"""The offload's ``minChars`` compares UTF-8 bytes, not characters: a port that measures the text it
is about to write to a file in bytes.

Pattern: a length limit checked only on ASCII; a CJK tool result below ``minChars`` characters but above
it in bytes is offloaded although it should stay inline.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)
PATTERN = "length limit checked only on ASCII"
BASELINE = "_baseline_offload"


class ByteManager(OffloadManager):
    def too_short(self, text: str) -> bool:
        return len(text.encode("utf-8")) <= self.min_chars


class Mutant(ReferenceImplementation):
    name = "semantic-ctx_min_chars_utf8"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return ByteManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
