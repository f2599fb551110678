"""A self-contained tool-protocol sanitizer with the contract's rules, for mutants that change one."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

Message = dict[str, Any]


@dataclasses.dataclass
class Sanitized:
    sanitized: list[Message]
    changed: bool


def object_arguments(call: Any) -> bool:
    try:
        return isinstance(call, dict) and isinstance(json.loads(call.get("arguments")), dict)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


class Sanitizer:
    def answered(self, calls: list[Any], results: list[Message]) -> list[Message] | None:
        """The leading results answering every call exactly once, or None."""
        if not all(object_arguments(c) for c in calls):
            return None
        expected = {str(c.get("id")) for c in calls}
        seen: set[str] = set()
        kept: list[Message] = []
        for result in results:
            if seen == expected:
                break
            call_id = result.get("toolCallId")
            if not isinstance(call_id, str) or call_id in seen:
                return None
            seen.add(call_id)
            kept.append(result)
        return kept if seen == expected else None

    def dropped(self, message: Message) -> list[Message]:
        """What stays of an assistant message whose round is unusable."""
        return []

    def __call__(self, messages: list[Message]) -> Sanitized:
        out: list[Message] = []
        index, total = 0, len(messages)
        while index < total:
            message = messages[index]
            role = message.get("role")
            if role == "assistant":
                end = index + 1
                while end < total and messages[end].get("role") == "tool":
                    end += 1
                kept = self.answered(list(message.get("toolCalls") or []), messages[index + 1 : end])
                if kept is None:
                    out.extend(self.dropped(message))
                else:
                    out.append(message)
                    out.extend(kept)
                index = end
            elif role == "tool":
                index += 1
            else:
                out.append(message)
                index += 1
        return Sanitized(out, out != messages)
