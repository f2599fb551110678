"""A second adapter: the reference with its tool-protocol sanitizer swapped for an independent one.

It shows that an implementation is plugged in through ``--synapse-impl`` alone, and that the spec holds a
component to the rules rather than to the reference's code: this sanitizer decides per tool round from an
index of results by call id (two passes) where the reference walks the history once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

Message = dict[str, Any]


@dataclass(frozen=True)
class Sanitized:
    sanitized: list[Message]
    changed: bool


def _object_arguments(call: Any) -> bool:
    try:
        return isinstance(call, dict) and isinstance(json.loads(call.get("arguments") or "null"), dict)
    except (TypeError, ValueError):
        return False


def _rounds(messages: list[Message]) -> list[tuple[int, int]]:
    """(start, end) of each assistant tool-call message and the tool messages right after it."""
    spans = []
    for start, message in enumerate(messages):
        if message.get("role") == "assistant" and message.get("toolCalls"):
            end = start + 1
            while end < len(messages) and messages[end].get("role") == "tool":
                end += 1
            spans.append((start, end))
    return spans


def sanitize(messages: list[Message]) -> Sanitized:
    keep = [m.get("role") != "tool" for m in messages]
    for start, end in _rounds(messages):
        calls = messages[start]["toolCalls"]
        wanted = [str(c.get("id")) if isinstance(c, dict) else "" for c in calls]
        answers = [m.get("toolCallId") for m in messages[start + 1 : end]]
        complete = answers[: len(wanted)]
        valid = all(_object_arguments(c) for c in calls) and sorted(map(str, complete)) == sorted(wanted)
        valid = valid and len(set(wanted)) == len(wanted) and None not in complete
        keep[start] = valid
        for index in range(start + 1, start + 1 + len(wanted)):
            if index < end:
                keep[index] = valid
    kept = [m for m, k in zip(messages, keep, strict=True) if k]
    return Sanitized(kept, len(kept) != len(messages))


class AlternativeImplementation(ReferenceImplementation):
    name = "synapse-ref-alt-sanitizer"

    def sanitize_tool_protocol_history(self, messages: list[Message]) -> Sanitized:
        return sanitize(messages)


implementation = AlternativeImplementation
