"""Token counting: the counter port, the default counter and a per-message cache.

A message counts as the tokens of its compact JSON text (role and keys included), like the original.
The original counts the whole history twice per agent step; on long sessions that dominates the step
(seconds for tens of thousands of messages), so :class:`MessageTokenCache` remembers the count of each
distinct message text and only new or changed messages are tokenised again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class TokenCounter(Protocol):
    def count_tokens(self, text: str) -> int: ...


class ApproximateTokenCounter:
    """``ceil(len / 4)``: the original's fallback when the tokenizer is unavailable or fails."""

    def count_tokens(self, text: str) -> int:
        return math.ceil(len(text) / 4)


class Cl100kTokenCounter:
    """Exact ``cl100k_base`` counts through the optional, offline ``bpe-openai`` package."""

    def __init__(self) -> None:
        import bpe_openai

        self._encoding = bpe_openai.get_encoding("cl100k_base")

    def count_tokens(self, text: str) -> int:
        try:
            return len(self._encoding.encode_ordinary(text))
        except Exception:
            return math.ceil(len(text) / 4)


def default_token_counter() -> TokenCounter:
    """The exact counter when ``bpe-openai`` is installed, else the approximation; never the network."""
    try:
        return Cl100kTokenCounter()
    except Exception:
        return ApproximateTokenCounter()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def message_json(message: Mapping[str, Any]) -> str:
    """The text a message is counted as (``JSON.stringify`` shape: compact, non-ASCII kept)."""
    return _ENCODER.encode(message)


def count_message_tokens(messages: Iterable[Mapping[str, Any]], counter: TokenCounter) -> int:
    """Uncached sum over the messages; see :class:`MessageTokenCache` for repeated counting."""
    return sum(counter.count_tokens(message_json(m)) for m in messages)


class MessageTokenCache:
    """Counts messages with ``counter``, remembering the count of each distinct message text."""

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter
        self._counts: dict[str, int] = {}

    def count_message(self, message: Mapping[str, Any]) -> int:
        text = message_json(message)
        if text not in self._counts:
            self._counts[text] = self.counter.count_tokens(text)
        return self._counts[text]

    def count_messages(self, messages: Iterable[Mapping[str, Any]]) -> int:
        return sum(self.count_message(m) for m in messages)
