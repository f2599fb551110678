"""Offloading long tool results to files when the history grows past a token threshold."""

from __future__ import annotations

import logging
import math
from typing import Any

from synapse_ref.context.offload_storage import OffloadStore
from synapse_ref.context.records import Message, OffloadResult
from synapse_ref.context.token_counter import MessageTokenCache, TokenCounter, default_token_counter
from synapse_ref.js_text import WHITESPACE, array_join_text, json_stringify

OFFLOAD_REFERENCE_PREFIX = "Tool result is at:"

logger = logging.getLogger("synapse.context.manager")


def message_text(message: Message) -> str | None:
    """The text parts of a message joined with newlines, or None when it has none.

    As the original's ``parts.map((part) => part.text).join('\n')``: every part of type ``text`` counts,
    and ``Array.join`` writes a missing or null text as nothing (a boolean as ``true``/``false``)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
    return "\n".join(array_join_text(t) for t in texts) if texts else None


def reference_message(message: Message, filepath: str) -> Message:
    return {**message, "content": [{"type": "text", "text": f"{OFFLOAD_REFERENCE_PREFIX} {filepath}"}]}


class ContextManager:
    """Replaces long tool results in the older part of the history with file references.

    Only the first ``floor(len * scan_ratio)`` messages are scanned, so the recent results the model is
    working with stay inline; the offload starts when the history reaches ``offload_threshold`` tokens.
    """

    def __init__(
        self,
        storage: OffloadStore,
        *,
        offload_threshold: int,
        scan_ratio: float,
        min_chars: int,
        token_counter: TokenCounter | None = None,
    ) -> None:
        self.storage = storage
        self.offload_threshold = offload_threshold
        self.scan_ratio = scan_ratio
        self.min_chars = min_chars
        self._tokens = MessageTokenCache(
            token_counter if token_counter is not None else default_token_counter()
        )

    def count_tokens(self, messages: list[Message]) -> int:
        return self._tokens.count_messages(messages)

    def offload_if_needed(self, messages: list[Message]) -> OffloadResult:
        previous = self.count_tokens(messages)
        if previous < self.offload_threshold:
            return OffloadResult(list(messages), 0, previous, previous, 0, False)
        next_messages, offloaded = self._perform_offload(messages)
        current = self.count_tokens(next_messages) if offloaded else previous
        return OffloadResult(
            messages=next_messages,
            offloaded_count=offloaded,
            previous_tokens=previous,
            current_tokens=current,
            freed_tokens=previous - current,
            still_exceeds_threshold=current >= self.offload_threshold,
        )

    def _perform_offload(self, messages: list[Message]) -> tuple[list[Message], int]:
        scan_end = math.floor(len(messages) * self.scan_ratio)
        result = list(messages)
        offloaded = 0
        for index in range(min(scan_end, len(messages))):
            message = messages[index]
            if message.get("role") != "tool":
                continue
            content = _offloadable_text(message)
            if len(content) <= self.min_chars or is_offload_reference(content):
                continue
            try:
                filepath = self.storage.save(content)
            except Exception as exc:
                logger.warning("Failed to offload tool message, skipping message: %s", exc)
                continue
            result[index] = reference_message(message, filepath)
            offloaded += 1
        return result, offloaded


def is_offload_reference(text: str) -> bool:
    """Whether a tool result is already a reference, as the original's ``text.trimStart()`` sees it:
    JavaScript's white space before the prefix (U+FEFF included, U+001C..U+001F and U+0085 not)."""
    return text.lstrip(WHITESPACE).startswith(OFFLOAD_REFERENCE_PREFIX)


def _offloadable_text(message: Message) -> str:
    text = message_text(message)
    if text is not None:
        return text
    content: Any = message.get("content")
    return json_stringify(content)  # the original's JSON.stringify: 2.0 is 2, index keys come first
