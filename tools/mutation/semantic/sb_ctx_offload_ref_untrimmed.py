"""A tool message that is already an offload reference but starts with whitespace (``"\\nTool result is
at: <path>"``) is offloaded again: the port tests ``text.startsWith("Tool result is at:")`` where the
original trims the start first, so the reference is written to a new file and replaced by a reference
to that file.

Pattern: leading whitespace / a newline in front of a marker; every example reference starts at the
first character.
"""

from __future__ import annotations

import logging
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OFFLOAD_PREFIX, OffloadManager, OffloadOutcome, message_text

AREAS = ("context",)
PATTERN = "leading whitespace before a marker"
BASELINE = "_baseline_offload"


class UntrimmedManager(OffloadManager):
    def offload_if_needed(self, messages: list[dict[str, Any]]) -> OffloadOutcome:
        previous = self.count(messages)
        if previous < self.threshold:
            return OffloadOutcome(list(messages), 0, previous, previous, 0, False)
        result = list(messages)
        offloaded = 0
        for index in range(min(self.scan_end(len(messages)), len(messages))):
            message = messages[index]
            if message.get("role") != "tool":
                continue
            text = message_text(message)
            if self.too_short(text) or text.startswith(OFFLOAD_PREFIX):
                continue
            try:
                path = self.storage.save(text)
            except Exception as exc:
                logging.getLogger("synapse.context.manager").warning(
                    "Failed to offload tool message, skipping message: %s", exc
                )
                continue
            result[index] = {**message, "content": [{"type": "text", "text": f"{OFFLOAD_PREFIX} {path}"}]}
            offloaded += 1
        current = self.count(result) if offloaded else previous
        return OffloadOutcome(
            result, offloaded, previous, current, previous - current, current >= self.threshold
        )


class Mutant(ReferenceImplementation):
    name = "semantic-sb_ctx_offload_ref_untrimmed"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return UntrimmedManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
