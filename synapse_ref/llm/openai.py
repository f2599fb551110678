"""OpenAI-compatible chat completions (``POST {base}/chat/completions``), streamed or not.

The base URL includes the API version, as ``OPENAI_BASE_URL`` does (``https://api.openai.com/v1``).  A
message with exactly one text part is sent as a string, any other as a list of text parts; tool calls
keep their JSON-text arguments verbatim.  Usage: ``prompt_tokens`` counts every input token, of which
``prompt_tokens_details.cached_tokens`` were read from the cache; OpenAI reports no cache writes, but
compatible gateways do, as ``prompt_tokens_details.cache_write_tokens`` or a top-level
``cache_creation_input_tokens``; both are read, and what is left of the prompt is ``inputOther``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from synapse_ref.llm.wire import Message, Usage, as_int, assistant_message, text_parts, tool_schema, usage


class OpenAIWire:
    provider = "OpenAI"

    def url(self, base_url: str) -> str:
        return base_url.rstrip("/") + "/chat/completions"

    def headers(self, api_key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}", "content-type": "application/json"}

    def body(
        self,
        model: str,
        system_prompt: str,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]],
        max_tokens: int,
        stream: bool,
    ) -> dict[str, Any]:
        wire: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}] if system_prompt else []
        wire.extend(to_wire_message(m) for m in messages)
        body: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "messages": wire}
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t["name"],
                        "description": t.get("description", ""),
                        "parameters": tool_schema(t),
                    },
                }
                for t in tools
            ]
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body

    def parse(self, body: Mapping[str, Any]) -> tuple[Message, Usage]:
        choices = body.get("choices") or [{}]
        message = choices[0].get("message") or {}
        content = message.get("content")
        texts = [content] if isinstance(content, str) else text_parts({"content": content or []})
        calls = [
            {
                "id": str(call.get("id", "")),
                "name": str((call.get("function") or {}).get("name", "")),
                "arguments": str((call.get("function") or {}).get("arguments") or "{}"),
            }
            for call in message.get("tool_calls") or []
        ]
        return assistant_message(texts, calls), _usage(body.get("usage") or {})

    def assembler(self) -> OpenAIStream:
        return OpenAIStream()

    def is_stream_end(self, data: str) -> bool:
        return data.strip() == "[DONE]"

    def stream_error(self, event: str, data: Mapping[str, Any]) -> str | None:
        error = data.get("error")
        if not error:
            return None
        return str(error.get("message") or error) if isinstance(error, Mapping) else str(error)


class OpenAIStream:
    """Assembles ``chat.completion.chunk`` events: text deltas in order, tool calls by their ``index``
    with the argument fragments concatenated, and the usage of the final chunk."""

    def __init__(self) -> None:
        self._text = ""
        self._calls: dict[int, dict[str, str]] = {}
        self._usage: Mapping[str, Any] = {}

    def feed(self, event: str, data: Mapping[str, Any]) -> str:
        if data.get("usage"):
            self._usage = data["usage"]
        text = ""
        for choice in data.get("choices") or []:
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                text += delta["content"]
            for call in delta.get("tool_calls") or []:
                entry = self._calls.setdefault(
                    as_int(call.get("index")), {"id": "", "name": "", "arguments": ""}
                )
                function = call.get("function") or {}
                if call.get("id"):
                    entry["id"] = str(call["id"])
                if function.get("name"):
                    entry["name"] = str(function["name"])
                entry["arguments"] += str(function.get("arguments") or "")
        self._text += text
        return text

    def result(self) -> tuple[Message, Usage]:
        calls = [{**c, "arguments": c["arguments"] or "{}"} for _, c in sorted(self._calls.items())]
        return assistant_message([self._text], calls), _usage(self._usage)


def to_wire_message(message: Mapping[str, Any]) -> dict[str, Any]:
    role = str(message.get("role", "user"))
    wire: dict[str, Any] = {"role": role, "content": _content(message)}
    if role == "tool":
        wire["tool_call_id"] = str(message.get("toolCallId", ""))
    calls = message.get("toolCalls") or []
    if role == "assistant" and calls:
        wire["tool_calls"] = [
            {
                "id": str(call.get("id", "")),
                "type": "function",
                "function": {
                    "name": str(call.get("name", "")),
                    "arguments": str(call.get("arguments") or ""),
                },
            }
            for call in calls
        ]
        if wire["content"] == []:
            wire["content"] = None
    return wire


def _content(message: Mapping[str, Any]) -> str | list[dict[str, Any]]:
    raw = message.get("content")
    if isinstance(raw, str):
        return raw
    texts = text_parts(message)
    if len(texts) == 1 and len(raw or []) == 1:
        return texts[0]
    return [{"type": "text", "text": t} for t in texts]


def _usage(raw: Mapping[str, Any]) -> Usage:
    details = raw.get("prompt_tokens_details") or {}
    read = as_int(details.get("cached_tokens")) or as_int(raw.get("cache_read_input_tokens"))
    creation = as_int(details.get("cache_write_tokens")) or as_int(raw.get("cache_creation_input_tokens"))
    prompt = as_int(raw.get("prompt_tokens"))
    return usage(prompt - read - creation, as_int(raw.get("completion_tokens")), read, creation)
