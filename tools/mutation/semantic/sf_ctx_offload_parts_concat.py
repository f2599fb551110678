"""A tool message's text parts are concatenated without a separator before they are offloaded: the
port writes ``parts.map(p => p.text).join("")`` where the original joins them with a newline, so a
result sent as two parts (``"line 1"``, ``"line 2"``) is saved as ``"line 1line 2"``.

Pattern: an input carrying two things (two text parts) where every example tool message has one.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)
PATTERN = "input carrying two things rendered by different rules"
BASELINE = "_baseline_offload"


def concatenated(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        texts = [
            p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text" and "text" in p
        ]
        if texts:
            return "".join(str(t) for t in texts)
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


class ConcatManager(OffloadManager):
    def text_of(self, message: dict[str, Any]) -> str:
        return concatenated(message)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_ctx_offload_parts_concat"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return ConcatManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
