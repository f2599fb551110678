"""Helpers shared by the step modules: running coroutines, an exact token counter, a recording sleep."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Coroutine, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

_scenario_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("scenario_loop", default=None)


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine of the implementation to completion from a (synchronous) step, on the scenario's
    event loop."""
    loop = _scenario_loop.get()
    if loop is None:
        return asyncio.run(coro)
    return loop.run_until_complete(coro)


@pytest.fixture(autouse=True)
def scenario_event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for every call of a scenario, as an agent process has one: work an implementation
    leaves behind when a call returns (a task it never cancelled, still driving a command) stays
    pending and visible, where a loop per call (``asyncio.run``) would cancel it on the way out and hide
    the leak. What is left is cancelled when the scenario ends."""
    loop = asyncio.new_event_loop()
    token = _scenario_loop.set(loop)
    try:
        yield loop
    finally:
        _scenario_loop.reset(token)
        try:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()


class CharTokenCounter:
    """An exact, predictable token counter for scenarios: one token per character."""

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        self.calls += 1
        return len(text)


class FailingTokenCounter:
    """A token counter that fails on every text, as a tokenizer that cannot load or encode would."""

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        self.calls += 1
        raise RuntimeError("token counter unavailable")


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


@dataclass
class PartsReply:
    message: dict[str, Any]
    usage: dict[str, int]


class PartsModel:
    """A model whose one reply is an assistant message made of the given parts (text and others)."""

    def __init__(self, model: str, parts: list[dict[str, str]]) -> None:
        self.model_name = model
        self.parts = parts
        self.calls = 0

    async def generate(
        self,
        system_prompt: str,
        messages: Any,
        tools: Any = (),
        *,
        max_tokens: int | None = None,
        signal: Any = None,
    ) -> PartsReply:
        self.calls += 1
        assert self.calls == 1, "setting up: the model was scripted for one reply only"
        return PartsReply({"role": "assistant", "content": copy.deepcopy(self.parts)}, {})

    def with_model(self, model: str) -> PartsModel:
        return self


def parts_of(datatable: list[list[str]]) -> list[dict[str, str]]:
    """The rows of a table whose header names the fields of each part."""
    header, *rows = datatable
    return [dict(zip(header, row, strict=True)) for row in rows]


def reply_parts_of(datatable: list[list[str]]) -> list[dict[str, Any]]:
    """The parts of a model reply from a table, a cell ``(null)`` being a JSON null (AGT-105, CTX-114)."""
    return [
        {key: None if cell == "(null)" else cell for key, cell in part.items()}
        for part in parts_of(datatable)
    ]
