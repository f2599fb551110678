"""Repairs the tool-call protocol of a history before it is replayed to the model.

Providers reject a history where an assistant tool call has no result, where a tool result answers no
call, or where the call's arguments are not a JSON object; a history interrupted mid-round (abort, crash)
or produced by a model that emitted broken arguments would otherwise fail every later request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]


@dataclass
class SanitizeResult:
    """The repaired history and whether anything had to be removed."""

    sanitized: list[Message]
    changed: bool


def is_object_json(arguments: object) -> bool:
    """True for the JSON text of an object (``'{}'`` included); ``''``, ``'[]'`` or ``'null'`` are not."""
    try:
        value = json.loads(arguments)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return isinstance(value, dict)


def sanitize_tool_protocol_history(messages: list[Message]) -> SanitizeResult:
    """Keep an assistant tool-call turn only with a complete, well-formed set of results right after it.

    A turn whose arguments are malformed, or whose results are missing, unknown or duplicated, is dropped
    together with the tool messages that follow it; a tool message that answers no call is dropped too.
    The original's rule: the whole assistant message goes, text included, so no half-turn is replayed.
    """
    sanitized: list[Message] = []
    index = 0
    total = len(messages)
    while index < total:
        message = messages[index]
        role = message.get("role")
        if role == "assistant":
            # Without tool calls the round is complete with no results, and any tool message after it
            # answers nothing, so it is dropped like any other stray result.
            following = index + 1
            while following < total and messages[following].get("role") == "tool":
                following += 1
            kept = _complete_round(message.get("toolCalls") or [], messages[index + 1 : following])
            if kept is not None:
                sanitized.append(message)
                sanitized.extend(kept)
                index += 1 + len(kept)
            else:
                index = following
            continue
        if role == "tool":
            index += 1
            continue
        sanitized.append(message)
        index += 1
    return SanitizeResult(sanitized, len(sanitized) != total)


def _complete_round(tool_calls: list[Any], tool_messages: list[Message]) -> list[Message] | None:
    """The tool messages answering every call exactly once, or None when the round is unusable."""
    if not all(isinstance(call, dict) and is_object_json(call.get("arguments")) for call in tool_calls):
        return None
    expected = {str(call.get("id")) for call in tool_calls}
    matched: list[Message] = []
    seen: set[str] = set()
    for tool_message in tool_messages:
        if seen == expected:
            break
        call_id = tool_message.get("toolCallId")
        # An unknown id can never make ``seen`` equal ``expected``; only a repeated one needs a check.
        if not isinstance(call_id, str) or call_id in seen:
            return None
        seen.add(call_id)
        matched.append(tool_message)
    return matched if seen == expected else None
