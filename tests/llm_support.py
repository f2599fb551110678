"""Shared pieces of the HTTP model client tests: recorded transcripts, a recording sleep, a seeded faker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from faker import Faker

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "llm"
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
OPENAI_URL = "https://api.openai.com/v1/chat/completions"


def sse(name: str) -> httpx.Response:
    """A 200 answer streaming the recorded event transcript ``fixtures/llm/<name>``."""
    return httpx.Response(
        200,
        content=(FIXTURES / name).read_bytes(),
        headers={"content-type": "text/event-stream; charset=utf-8"},
    )


def recorded_json(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def sent(route: Any, index: int = -1) -> Any:
    """The JSON body of a request a respx route received."""
    return json.loads(route.calls[index].request.content)


class RecordingSleep:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def faker() -> Faker:
    fake = Faker()
    fake.seed_instance(20240611)
    return fake


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}
