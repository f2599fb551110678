"""A tool result that merely *mentions* ``Tool result is at:`` is taken for an offload reference and
never offloaded: the port tests ``text.includes("Tool result is at:")`` to skip results it already
offloaded, where the original skips only a text that starts (after leading white space) with the
marker, so a ``grep`` over the session's own logs, or a result quoting an earlier reference, stays
inline however long it is.

Pattern: a marker tested where it may be (anywhere) instead of where it must be (at the start); every
example's reference is the whole text and no other result contains the marker.
"""

from __future__ import annotations

import logging
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OFFLOAD_PREFIX, OffloadManager, OffloadOutcome, message_text

AREAS = ("context",)
PATTERN = "marker anywhere instead of at the start"
BASELINE = "_baseline_offload"


class AnywhereManager(OffloadManager):
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
            if self.too_short(text) or OFFLOAD_PREFIX in text:
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
    name = "semantic-sj_ctx_offload_ref_anywhere"

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return AnywhereManager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Mutant
