"""A self-contained tool-protocol sanitizer with the contract's rules, for mutants that change one."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

Message = dict[str, Any]


@dataclasses.dataclass
class Sanitized:
    sanitized: list[Message]
    changed: bool


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    """``1e999`` is JSON syntax but no finite number."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def object_arguments(call: Any) -> bool:
    """A mapping with a non-empty string id, a string name and strict-JSON object arguments."""
    if not (
        isinstance(call, dict)
        and isinstance(call.get("id"), str)
        and call["id"]
        and isinstance(call.get("name"), str)
        and isinstance(call.get("arguments"), str)
    ):
        return False
    try:
        value = json.loads(call["arguments"], parse_constant=_no_constants, parse_float=_finite)
        return isinstance(value, dict)
    except (ValueError, RecursionError):
        return False


class Sanitizer:
    def well_formed(self, call: Any) -> bool:
        """Whether a call can be kept (a mutant may read its arguments otherwise)."""
        return object_arguments(call)

    def key(self, call_id: str) -> str:
        """What a call id is matched by (a mutant may compare ids otherwise)."""
        return call_id

    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        """The leading results answering every call exactly once, or None."""
        if not all(self.well_formed(c) for c in calls):
            return None
        expected = {self.key(str(c.get("id"))) for c in calls}
        if len(expected) != len(calls):
            return None
        seen: set[str] = set()
        kept: list[Message] = []
        for result in results:
            if seen == expected:
                break
            call_id = result.get("toolCallId")
            if not isinstance(call_id, str) or self.key(call_id) in seen:
                return None
            seen.add(self.key(call_id))
            kept.append(result)
        return kept if seen == expected else None

    def dropped(self, message: Message) -> list[Message]:
        """What stays of an assistant message whose round is unusable."""
        return []

    def __call__(self, messages: list[Any]) -> Sanitized:
        entries = list(messages)
        out: list[Message] = []
        used: set[str] = set()
        index, total = 0, len(entries)
        while index < total:
            message = entries[index]
            if not isinstance(message, dict):
                index += 1
                continue
            role = message.get("role")
            if role == "assistant":
                end = index + 1
                while end < total and isinstance(entries[end], dict) and entries[end].get("role") == "tool":
                    end += 1
                calls = message.get("toolCalls")
                calls = [] if calls is None else calls
                kept = self.answered(calls, entries[index + 1 : end]) if isinstance(calls, list) else None
                listed = calls if isinstance(calls, list) else []
                ids = {c["id"] for c in listed if isinstance(c, dict) and isinstance(c.get("id"), str)}
                if kept is not None and not ids & used:
                    out.append(message)
                    out.extend(kept)
                    used.update(ids)
                    index += 1 + len(kept)
                else:
                    out.extend(self.dropped(message))
                    index = end
            elif role == "tool":
                index += 1
            else:
                out.append(message)
                index += 1
        rewritten = any(a is not b for a, b in zip(out, entries, strict=False))
        return Sanitized(out, len(out) != total or rewritten)
