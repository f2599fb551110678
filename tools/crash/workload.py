"""What the killed child writes, derived from (trial, n) alone so the parent can tell what to expect."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, cast

from synapse_spec.contract import Implementation

PAGE = 4096


def load_implementation(spec: str) -> Callable[[], Implementation]:
    """``package.module[:attr]`` (attr defaults to ``implementation``) as a factory."""
    module_name, _, attr = spec.partition(":")
    target = getattr(importlib.import_module(module_name), attr or "implementation")
    if callable(target) and not isinstance(target, Implementation):
        return cast(Callable[[], Implementation], target)
    return lambda: cast(Implementation, target)


def tag(trial: int, n: int) -> str:
    return f"t{trial}.{n}"


def message(trial: int, n: int) -> dict[str, Any]:
    """A message from a few bytes to three pages long, so kills also land inside multi-page writes."""
    size = random.Random(f"{trial}:{n}").choice((10, 100, 200, 500, 1000, 2000, 3 * PAGE))
    role = "user" if n % 2 else "assistant"
    return {"role": role, "content": [{"type": "text", "text": f"{tag(trial, n)} " + "x" * size}]}


def message_tag(value: Any) -> str | None:
    """The tag a message of this workload carries, or None for anything else."""
    try:
        text = value["content"][0]["text"]
    except (KeyError, IndexError, TypeError):
        return None
    return text.split(" ", 1)[0] if isinstance(text, str) else None


def rewrite_messages(trial: int, n: int) -> list[dict[str, Any]]:
    count = random.Random(f"rewrite:{trial}:{n}").randint(1, 60)
    return [message(trial, n * 1000 + k) for k in range(count)]


def usage_round() -> dict[str, int]:
    return {"inputOther": 1, "output": 2, "inputCacheRead": 0, "inputCacheCreation": 0}
