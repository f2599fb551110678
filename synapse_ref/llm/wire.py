"""What the HTTP client needs from a provider's wire format, and helpers both formats share.

A wire format is pure translation: the agent's messages and tools into a request body, a response body or
a stream of server-sent events back into one assistant message and its token usage.  The transport
(retries, timeouts, abort, streaming) lives in :mod:`synapse_ref.llm.http_client`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Message = dict[str, Any]
Usage = dict[str, int]


class StreamAssembler(Protocol):
    """Builds one reply from a provider's stream events, reporting text as it arrives."""

    def feed(self, event: str, data: Mapping[str, Any]) -> str:
        """Take one event (its ``event:`` name, its ``data:`` JSON); return the text delta it carries."""
        ...

    def result(self) -> tuple[Message, Usage]: ...


class WireFormat(Protocol):
    """One provider's HTTP dialect."""

    @property
    def provider(self) -> str:
        """The name errors use (``Anthropic``, ``OpenAI``)."""
        ...

    def url(self, base_url: str) -> str: ...

    def headers(self, api_key: str) -> dict[str, str]: ...

    def body(
        self,
        model: str,
        system_prompt: str,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]],
        max_tokens: int,
        stream: bool,
    ) -> dict[str, Any]: ...

    def parse(self, body: Mapping[str, Any]) -> tuple[Message, Usage]: ...

    def assembler(self) -> StreamAssembler: ...

    def is_stream_end(self, data: str) -> bool:
        """True for a sentinel ``data:`` line that ends the stream without JSON (``[DONE]``)."""
        ...

    def stream_error(self, event: str, data: Mapping[str, Any]) -> str | None:
        """The error message when a stream event reports a failure, else None."""
        ...


def text_parts(message: Mapping[str, Any]) -> list[str]:
    """The texts of a message's text parts, in order (other parts are not text)."""
    parts = message.get("content") or []
    if isinstance(parts, str):
        return [parts]
    return [str(p.get("text", "")) for p in parts if isinstance(p, Mapping) and p.get("type") == "text"]


def tool_schema(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's JSON schema under either name the agent's tools use (``parameters`` or ``input_schema``)."""
    schema = tool.get("parameters", tool.get("input_schema"))
    return dict(schema) if isinstance(schema, Mapping) else {"type": "object", "properties": {}}


def arguments_object(arguments: Any) -> dict[str, Any]:
    """A tool call's JSON-text arguments as an object; text that is not an object becomes ``{}`` (as in the
    original: a call interrupted while its arguments were written must not stop the conversation)."""
    if isinstance(arguments, Mapping):
        return dict(arguments)
    try:
        parsed = json.loads(arguments) if isinstance(arguments, str) and arguments.strip() else {}
    except json.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def assistant_message(texts: Sequence[str], tool_calls: Sequence[Mapping[str, str]]) -> Message:
    """The contract's assistant message: one text part per non-empty text, ``toolCalls`` when any."""
    message: Message = {"role": "assistant", "content": [{"type": "text", "text": t} for t in texts if t]}
    if tool_calls:
        message["toolCalls"] = [dict(call) for call in tool_calls]
    return message


def usage(input_other: int, output: int, cache_read: int, cache_creation: int) -> Usage:
    return {
        "inputOther": max(input_other, 0),
        "output": max(output, 0),
        "inputCacheRead": max(cache_read, 0),
        "inputCacheCreation": max(cache_creation, 0),
    }


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
