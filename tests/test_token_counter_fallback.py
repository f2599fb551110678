"""A failing counter is estimated around, text by text, and asked again on the next count."""

from __future__ import annotations

import logging

import pytest

from synapse_ref.context.token_counter import MessageTokenCache


class FlakyCounter:
    """Fails on its first ``failures`` calls, then counts one token per character."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        self.calls += 1
        if self.calls <= self.failures:
            raise RuntimeError("tokenizer not ready")
        return len(text)


def test_an_estimate_is_not_remembered_and_one_warning_covers_the_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    message = {"role": "user", "content": "🚀" * 5}  # JSON text: 33 characters, 38 UTF-16 code units
    text_length = len('{"role":"user","content":""}') + 5
    cache = MessageTokenCache(FlakyCounter(failures=2))
    with caplog.at_level(logging.WARNING, logger="synapse"):
        estimated = cache.count_messages([message, message])
    assert estimated == 2 * -(-(text_length + 5) // 4)  # both estimated from the UTF-16 length
    assert [r.getMessage().split(",")[0] for r in caplog.records] == [
        "Token counting failed for 2 message(s)"
    ]
    caplog.clear()
    assert cache.count_messages([message]) == text_length  # the counter works again: asked, and exact
    assert cache.count_messages([message]) == text_length
    assert isinstance(cache.counter, FlakyCounter) and cache.counter.calls == 3  # the third was remembered
    assert caplog.records == []
