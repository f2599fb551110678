"""Helpers shared by the step modules: running coroutines, an exact token counter, a recording sleep."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine of the implementation to completion from a (synchronous) step."""
    return asyncio.run(coro)


class CharTokenCounter:
    """An exact, predictable token counter for scenarios: one token per character."""

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        self.calls += 1
        return len(text)


def message_tokens(messages: list[dict[str, Any]]) -> int:
    """What the spec expects a history to count under ``CharTokenCounter``: the JSON text of each message."""
    return sum(len(json.dumps(m, ensure_ascii=False, separators=(",", ":"))) for m in messages)


class RecordingSleep:
    """A sleep port that returns at once and remembers how long it was asked to wait."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def char_token_counter() -> CharTokenCounter:
    return CharTokenCounter()


@pytest.fixture
def recording_sleep() -> RecordingSleep:
    return RecordingSleep()
