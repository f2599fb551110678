"""A tool message without text parts is never offloaded: the port reads a message's text parts and
finds nothing to save, where the original offloads such a result as its content's JSON (an image
part, a structured result), which can be the largest thing in the history.

Pattern: a filter (text parts only) where every example tool result is text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)
PATTERN = "filter dropped where the examples agree"
BASELINE = "_baseline_offload"


def text_only(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(p["text"]) for p in content if isinstance(p, dict) and p.get("type") == "text" and "text" in p
        )
    return ""


class NoTextManager(OffloadManager):
    def text_of(self, message: dict[str, Any]) -> str:
        return text_only(message)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_ctx_offload_text_parts_only"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return NoTextManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
