"""Repairs the tool-call protocol of a history before it is replayed to the model.

Providers reject a history where an assistant tool call has no result, where a tool result answers no
call, where two tool calls share an id, or where the call's arguments are not a JSON object; a history
interrupted mid-round (abort, crash), edited by hand or produced by a model that emitted broken arguments
would otherwise fail every later request.

The output holds for any input (entries of any JSON type, fields of any type): every kept tool call is a
mapping with a non-empty string ``id`` unique in the whole history, a string ``name`` and ``arguments``
that are the strict-JSON text of an object (no ``NaN``/``Infinity``); it is answered by exactly one
``tool`` message right after its assistant message, and no ``tool`` message answers anything else.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import orjson

Message = dict[str, Any]


@dataclass
class SanitizeResult:
    """The repaired history and whether anything had to be removed."""

    sanitized: list[Message]
    changed: bool


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    """``1e999`` is JSON syntax but no finite number; a provider would see Infinity (or null)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def is_object_json(arguments: object) -> bool:
    """True for the strict-JSON text of an object (``'{}'`` included); ``''``, ``'[]'``, ``'null'``,
    ``'{"x": NaN}'``, ``'{"x": 1e999}'``, a number past the parser's digit limit or nesting past its
    depth are not."""
    if not isinstance(arguments, str):
        return False
    try:
        value = json.loads(arguments, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict)


_FAST_JSON_CHARS = 256
"""Arguments shorter than this are nested at most 128 levels deep, far inside what ``json`` parses."""


def _is_object_json_fast(arguments: object) -> bool:
    """:func:`is_object_json` for the arguments a model writes, at orjson's speed.

    On text of fewer than ``_FAST_JSON_CHARS`` characters orjson accepts exactly what the strict
    ``json`` check accepts (it refuses NaN, Infinity and numbers past the float range alike); what it
    refuses, and longer text, where the two could differ on nesting depth or ``json``'s digit limit,
    is decided by :func:`is_object_json`.
    """
    if type(arguments) is not str or len(arguments) >= _FAST_JSON_CHARS:
        return is_object_json(arguments)
    try:
        return type(orjson.loads(arguments)) is dict
    except orjson.JSONDecodeError:
        return is_object_json(arguments)


def _tool_calls(message: Message) -> list[Any] | None:
    """The message's tool calls (``[]`` when it has none), or None when the field is malformed."""
    calls = message.get("toolCalls")
    if calls is None:
        return []
    return calls if isinstance(calls, list) else None


def sanitize_tool_protocol_history(messages: list[Any]) -> SanitizeResult:
    """Keep an assistant tool-call turn only with a complete, well-formed set of results right after it.

    A turn whose calls are malformed (not a mapping, id missing, not a string, repeated, arguments not an
    object) or whose results are missing, unknown or duplicated is dropped together with the tool
    messages that follow it; a tool message that answers no call is dropped too, and so is an entry that
    is not a message at all.  The original's rule: the whole assistant message goes, text included, so
    no half-turn is replayed.
    """
    entries = list(messages)
    used_ids: set[str] = set()
    index = _valid_prefix_end(entries, used_ids)
    sanitized: list[Message] = entries[:index]
    total = len(entries)
    while index < total:
        message = entries[index]
        if not isinstance(message, dict):
            index += 1
            continue
        role = message.get("role")
        if role == "assistant":
            # Without tool calls the round is complete with no results, and any tool message after it
            # answers nothing, so it is dropped like any other stray result.
            following = index + 1
            while following < total and _is_tool_message(entries[following]):
                following += 1
            calls = _tool_calls(message)
            results = entries[index + 1 : following]
            kept = _complete_round(calls, results, used_ids) if calls is not None else None
            if kept is not None:
                sanitized.append(message)
                sanitized.extend(kept)
                used_ids.update(call["id"] for call in calls or [])
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


def _valid_prefix_end(entries: list[Any], used_ids: set[str]) -> int:
    """Where the rules above first have something to remove: every entry before it is kept as it is.

    A history is almost always valid, or valid but for its last round (an interrupted run), and a long
    session replays tens of thousands of messages before every model call; checking that they need no
    change in one pass, with the common single-call round inlined, is an order of magnitude cheaper
    than rebuilding the history round by round.  The ids of the checked rounds go into ``used_ids``.
    Anything unusual (a type other than exactly ``dict``/``str``, a round it cannot confirm) ends the
    prefix, and the general loop decides from there.
    """
    index, total = 0, len(entries)
    while index < total:
        message = entries[index]
        if type(message) is not dict:
            return index
        role = message.get("role")
        if role != "assistant":
            if role == "tool":  # a result outside a round: the general loop drops it
                return index
            index += 1
            continue
        calls = message.get("toolCalls")
        if not calls:
            if calls is not None and type(calls) is not list:
                return index
            index += 1  # no calls: complete; a tool message after it ends the prefix above
            continue
        if type(calls) is not list:
            return index
        after = index + 1 + len(calls)
        if after > total:
            return index
        if len(calls) == 1:
            call, result = calls[0], entries[index + 1]
            if type(call) is not dict or type(result) is not dict or result.get("role") != "tool":
                return index
            call_id = call.get("id")
            if (
                type(call_id) is not str
                or not call_id
                or call_id in used_ids
                or result.get("toolCallId") != call_id
                or type(call.get("name")) is not str
                or not _is_object_json_fast(call.get("arguments"))
            ):
                return index
            used_ids.add(call_id)
        elif not _round_is_valid(calls, entries[index + 1 : after], used_ids):
            return index
        index = after
    return index


def _round_is_valid(calls: list[Any], results: list[Any], used_ids: set[str]) -> bool:
    """Whether ``calls`` are well formed and answered by ``results``, one each in any order; their ids
    are then added to ``used_ids``."""
    ids: list[str] = []
    for call in calls:
        if call.__class__ is not dict:
            return False
        call_id = call.get("id")
        if (
            call_id.__class__ is not str
            or not call_id
            or call.get("name").__class__ is not str
            or not _is_object_json_fast(call.get("arguments"))
        ):
            return False
        ids.append(call_id)
    expected = set(ids)
    if len(expected) != len(ids) or not expected.isdisjoint(used_ids):
        return False
    answered: set[Any] = set()
    for result in results:
        if result.__class__ is not dict or result.get("role") != "tool":
            return False
        call_id = result.get("toolCallId")
        if call_id.__class__ is not str or call_id not in expected or call_id in answered:
            return False
        answered.add(call_id)
    used_ids |= expected
    return True


def _is_tool_message(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("role") == "tool"


def _well_formed_call(call: Any) -> bool:
    return (
        isinstance(call, dict)
        and isinstance(call.get("id"), str)
        and call["id"] != ""
        and isinstance(call.get("name"), str)
        and is_object_json(call.get("arguments"))
    )


def _complete_round(
    tool_calls: list[Any], tool_messages: list[Message], used_ids: set[str]
) -> list[Message] | None:
    """The tool messages answering every call exactly once, or None when the round is unusable."""
    if not all(_well_formed_call(call) for call in tool_calls):
        return None
    ids = [call["id"] for call in tool_calls]
    expected = set(ids)
    if len(expected) != len(ids) or expected & used_ids:
        return None
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
