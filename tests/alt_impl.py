"""A second adapter: the reference with its tool-protocol sanitizer swapped for an independent one.

It shows that an implementation is plugged in through ``--synapse-impl`` alone, and that the spec holds a
component to the rules rather than to the reference's code: this sanitizer decides per tool round from an
index of results by call id (two passes) where the reference walks the history once.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

Message = dict[str, Any]


@dataclass(frozen=True)
class Sanitized:
    sanitized: list[Message]
    changed: bool


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _finite(text: str) -> float:
    if not math.isfinite(value := float(text)):
        raise ValueError(text)
    return value


def _object_arguments(call: Any) -> bool:
    """Strict JSON (no NaN/Infinity) of an object; parser limits (digits, depth) count as invalid."""
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), str):
        return False
    try:
        value = json.loads(call["arguments"], parse_constant=_refuse, parse_float=_finite)
        return isinstance(value, dict)
    except (ValueError, RecursionError):
        return False


def _rounds(messages: list[Any]) -> list[tuple[int, int]]:
    """(start, end) of each assistant message with a ``toolCalls`` field and the tool messages after it."""
    spans = []
    for start, message in enumerate(messages):
        if (
            isinstance(message, dict)
            and message.get("role") == "assistant"
            and message.get("toolCalls") is not None
        ):
            end = start + 1
            while (
                end < len(messages)
                and isinstance(messages[end], dict)
                and messages[end].get("role") == "tool"
            ):
                end += 1
            spans.append((start, end))
    return spans


def _call_ids(calls: Any, used: set[str]) -> list[str] | None:
    """The ids of a well-formed list of calls (unique, not used by an earlier kept round), else None."""
    if not isinstance(calls, list) or not all(_object_arguments(c) for c in calls):
        return None
    ids = [c.get("id") for c in calls]
    if not all(isinstance(i, str) and i for i in ids) or any(
        not isinstance(c.get("name"), str) for c in calls
    ):
        return None
    return ids if len(set(ids)) == len(ids) and not used.intersection(ids) else None


def sanitize(messages: list[Any]) -> Sanitized:
    keep = [isinstance(m, dict) and m.get("role") != "tool" for m in messages]
    used: set[str] = set()
    for start, end in _rounds(messages):
        wanted = _call_ids(messages[start]["toolCalls"], used)
        answers = [m.get("toolCallId") for m in messages[start + 1 : end]]
        complete = answers[: len(wanted or [])]
        valid = (
            wanted is not None
            and all(isinstance(a, str) for a in complete)
            and sorted(complete) == sorted(wanted)
        )
        keep[start] = valid
        for index in range(start + 1, start + 1 + len(wanted or [])):
            if index < end:
                keep[index] = valid
        if valid and wanted:
            used.update(wanted)
    kept = [m for m, k in zip(messages, keep, strict=True) if k]
    return Sanitized(kept, len(kept) != len(messages))


class AlternativeImplementation(ReferenceImplementation):
    name = "synapse-ref-alt-sanitizer"

    def sanitize_tool_protocol_history(self, messages: list[Message]) -> Sanitized:
        return sanitize(messages)


implementation = AlternativeImplementation
