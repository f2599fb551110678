"""The Anthropic Messages API (``POST {base}/v1/messages``), streamed or not.

Messages keep their shape on the wire as far as the format allows: a message with exactly one text part
is sent as a string, any other as a list of blocks; ``tool`` messages become user messages holding one
``tool_result`` block (a ``tool`` message without its ``toolCallId`` is refused before anything is
sent); a ``system`` message inside the history becomes ``<system>…</system>`` user text
(the Messages API has no system role there).  As in the original, the system prompt, the last message's
last block and the last tool carry ``cache_control`` so the provider caches the stable prefix.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from synapse_ref.llm.errors import ProviderError
from synapse_ref.llm.wire import (
    Message,
    Usage,
    arguments_object,
    as_int,
    assistant_message,
    text_parts,
    tool_schema,
    usage,
)

API_VERSION = "2023-06-01"
CACHE_CONTROL = {"type": "ephemeral"}
_CACHEABLE = ("text", "image", "tool_use", "tool_result")


class AnthropicWire:
    provider = "Anthropic"

    def url(self, base_url: str) -> str:
        return base_url.rstrip("/") + "/v1/messages"

    def headers(self, api_key: str) -> dict[str, str]:
        return {"x-api-key": api_key, "anthropic-version": API_VERSION, "content-type": "application/json"}

    def body(
        self,
        model: str,
        system_prompt: str,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]],
        max_tokens: int,
        stream: bool,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"model": model, "max_tokens": max_tokens}
        if system_prompt:
            body["system"] = [{"type": "text", "text": system_prompt, "cache_control": CACHE_CONTROL}]
        body["messages"] = _with_cached_tail([to_wire_message(m) for m in messages])
        if tools:
            wire_tools = [
                {"name": t["name"], "description": t.get("description", ""), "input_schema": tool_schema(t)}
                for t in tools
            ]
            wire_tools[-1]["cache_control"] = CACHE_CONTROL
            body["tools"] = wire_tools
        if stream:
            body["stream"] = True
        return body

    def parse(self, body: Mapping[str, Any]) -> tuple[Message, Usage]:
        texts: list[str] = []
        calls: list[dict[str, str]] = []
        for block in body.get("content") or []:
            if block.get("type") == "text":
                texts.append(str(block.get("text", "")))
            elif block.get("type") == "tool_use":
                arguments = json.dumps(block.get("input") or {})
                calls.append(
                    {
                        "id": str(block.get("id", "")),
                        "name": str(block.get("name", "")),
                        "arguments": arguments,
                    }
                )
        return assistant_message(texts, calls), _usage(body.get("usage") or {})

    def assembler(self) -> AnthropicStream:
        return AnthropicStream()

    def is_stream_end(self, data: str) -> bool:
        return False

    def stream_error(self, event: str, data: Mapping[str, Any]) -> str | None:
        if event != "error" and data.get("type") != "error":
            return None
        error = data.get("error") or {}
        return str(error.get("message") or error.get("type") or "stream error")


class AnthropicStream:
    """Assembles ``message_start`` / ``content_block_*`` / ``message_delta`` events into one reply; tool
    call arguments are the concatenated ``input_json_delta`` fragments, exactly as the model wrote them
    (a ``content_block_start``'s own ``input`` is ignored).  Usage is read from ``message_start``;
    ``message_delta`` only updates the output tokens."""

    def __init__(self) -> None:
        self._blocks: dict[int, dict[str, str]] = {}
        self._usage: dict[str, int] = {}

    def feed(self, event: str, data: Mapping[str, Any]) -> str:
        kind = data.get("type", event)
        if kind == "message_start":
            self._usage.update(_raw_usage((data.get("message") or {}).get("usage") or {}))
        elif kind == "content_block_start":
            block = data.get("content_block") or {}
            entry = {"type": str(block.get("type", "")), "text": str(block.get("text", "")), "json": ""}
            if entry["type"] == "tool_use":
                # The start's ``input`` is not used (as in the original): the arguments are the deltas.
                entry.update(id=str(block.get("id", "")), name=str(block.get("name", "")))
            self._blocks[as_int(data.get("index"))] = entry
            return entry["text"] if entry["type"] == "text" else ""
        elif kind == "content_block_delta":
            entry = self._blocks.setdefault(
                as_int(data.get("index")), {"type": "text", "text": "", "json": ""}
            )
            delta = data.get("delta") or {}
            if delta.get("type") == "text_delta":
                text = str(delta.get("text", ""))
                entry["text"] += text
                return text
            if delta.get("type") == "input_json_delta":
                entry["json"] += str(delta.get("partial_json", ""))
        elif kind == "message_delta":
            # Only the output count moves on; input and cache figures stay those of ``message_start``.
            output = (data.get("usage") or {}).get("output_tokens")
            if output is not None:
                self._usage["output_tokens"] = as_int(output)
        return ""

    def result(self) -> tuple[Message, Usage]:
        texts: list[str] = []
        calls: list[dict[str, str]] = []
        for _, block in sorted(self._blocks.items()):
            if block["type"] == "text":
                texts.append(block["text"])
            elif block["type"] == "tool_use":
                calls.append({"id": block["id"], "name": block["name"], "arguments": block["json"] or "{}"})
        return assistant_message(texts, calls), _usage(self._usage)


def to_wire_message(message: Mapping[str, Any]) -> dict[str, Any]:
    role = message.get("role")
    if role == "system":
        return {"role": "user", "content": "<system>" + "\n".join(text_parts(message)) + "</system>"}
    if role == "tool":
        call_id = message.get("toolCallId")
        if not isinstance(call_id, str) or not call_id:
            # As in the original: refused here, before the API answers 400 to an empty ``tool_use_id``.
            raise ProviderError("Anthropic: tool message missing `toolCallId`.")
        result = {"type": "tool_result", "tool_use_id": call_id, "content": _content(message)}
        return {"role": "user", "content": [result]}
    content: str | list[dict[str, Any]] = _content(message)
    calls = (message.get("toolCalls") or []) if role == "assistant" else []
    if calls:
        blocks: list[dict[str, Any]] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
        )
        for call in calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": str(call.get("id", "")),
                    "name": str(call.get("name", "")),
                    "input": arguments_object(call.get("arguments")),
                }
            )
        content = blocks
    return {"role": "assistant" if role == "assistant" else "user", "content": content}


def _content(message: Mapping[str, Any]) -> str | list[dict[str, Any]]:
    """One text part as a string, anything else as text blocks (other part kinds are not sent)."""
    texts = text_parts(message)
    raw = message.get("content")
    if isinstance(raw, str):
        return raw
    if len(texts) == 1 and len(raw or []) == 1:
        return texts[0]
    return [{"type": "text", "text": t} for t in texts]


def _with_cached_tail(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not messages or not isinstance(messages[-1]["content"], list) or not messages[-1]["content"]:
        return messages
    last = dict(messages[-1])
    blocks = list(last["content"])
    if blocks[-1].get("type") in _CACHEABLE:
        blocks[-1] = {**blocks[-1], "cache_control": CACHE_CONTROL}
    last["content"] = blocks
    return [*messages[:-1], last]


def _raw_usage(raw: Mapping[str, Any]) -> dict[str, int]:
    keys = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    return {k: as_int(raw[k]) for k in keys if raw.get(k) is not None}


def _usage(raw: Mapping[str, Any]) -> Usage:
    values = _raw_usage(raw)
    return usage(
        values.get("input_tokens", 0),
        values.get("output_tokens", 0),
        values.get("cache_read_input_tokens", 0),
        values.get("cache_creation_input_tokens", 0),
    )
