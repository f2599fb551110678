"""A tool message made of several text parts is measured against ``minChars`` by the sum of its parts'
lengths: the port adds ``part.text.length`` up instead of building the text it is about to save, where
the original measures the text it offloads, the parts joined with a newline, so a result of two 25-
character parts (51 characters with the newline) stays inline under ``minChars=50``.

Pattern: inputs that carry two things rendered by different rules (the parts and the text made of
them); the multi-part examples are far longer than ``minChars`` either way.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)
PATTERN = "two things rendered by different rules"
BASELINE = "_baseline_offload"


class PartsSumManager(OffloadManager):
    def text_of(self, message: dict[str, Any]) -> str:
        content = message.get("content")
        parts = (
            [
                p["text"]
                for p in content or []
                if isinstance(p, dict) and p.get("type") == "text" and "text" in p
            ]
            if isinstance(content, list)
            else []
        )
        self._mut_measured = sum(len(str(t)) for t in parts) if parts else None
        return super().text_of(message)

    def too_short(self, text: str) -> bool:
        measured = getattr(self, "_mut_measured", None)
        return (measured if measured is not None else len(text)) <= self.min_chars


class Mutant(ReferenceImplementation):
    name = "semantic-sh_ctx_min_chars_parts_sum"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return PartsSumManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
