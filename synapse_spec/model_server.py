"""A scripted model served over loopback HTTP in the Anthropic Messages and OpenAI chat-completions formats.

Any object with the contract's ``LLMClient`` shape (normally a scenario's ``ScriptedLLM``) can be served:
every HTTP request becomes one ``generate(...)`` call on it, and its reply becomes the provider's JSON
or server-sent-event response.  The scripted model's call record is therefore the record of what went
over the wire, in the contract's terms.  Implementations in any language can be checked this way: point
their own Anthropic or OpenAI client at the printed base URL.

Endpoints (``{root}`` is ``http://127.0.0.1:<port>`` plus the model's path prefix, if any):

* ``POST {root}/v1/messages``: Anthropic Messages (the client's base URL is ``{root}``);
* ``POST {root}/v1/chat/completions``: OpenAI chat completions (the client's base URL is ``{root}/v1``).

Both answer ``"stream": true`` with server-sent events shaped like the providers' (Anthropic:
``message_start``, ``content_block_start/delta/stop``, ``message_delta``, ``message_stop``; OpenAI:
``chat.completion.chunk`` objects, usage in the last chunk when ``stream_options.include_usage``, then
``[DONE]``).  Text and tool-call arguments are sent in several fragments, so clients must assemble them.

**Requests translated back.**  ``model`` picks the model: the served one when the name matches, else the
client ``with_model(name)`` derives from it (made once per name, so ``with_model_calls`` lists each other
model requested, in order of first use; a switch to a model that is then never called, or to the same
name, is invisible over HTTP).  The system prompt is Anthropic's ``system`` (text blocks joined) or
OpenAI's leading ``system`` message.  A string content becomes one text part, a list of blocks one part
per text block; Anthropic ``tool_result`` blocks become ``role: "tool"`` messages with ``toolCallId``,
``tool_use`` blocks ``toolCalls`` (arguments: the exact text this server sent for that call id when the
object is unchanged, else compact JSON), and ``<system>…</system>`` user text a ``system`` message.
Tools become ``{"name", "description", "parameters"}``; ``max_tokens`` (or ``max_completion_tokens``) is
passed on.  ``cache_control`` markers are dropped.

**Usage.**  Anthropic: ``input_tokens`` = ``inputOther``, ``output_tokens``, ``cache_read_input_tokens``,
``cache_creation_input_tokens``.  OpenAI: ``prompt_tokens`` = all four input kinds added up,
``prompt_tokens_details.cached_tokens`` = ``inputCacheRead``, ``prompt_tokens_details.cache_write_tokens``
= ``inputCacheCreation``, ``completion_tokens`` = ``output``.

**Failures.**  An exception raised by ``generate`` (``ScriptedLLM.fail(...)``, a call beyond the script)
is answered with its ``status_code`` attribute when it has one, else **500**, with the provider's error
body (Anthropic ``{"type": "error", "error": {"type", "message"}}``, OpenAI ``{"error": {"message",
"type", "code"}}``), the exception's text as the message, and ``x-should-retry: false``, so a client that
honours the header (as the providers' SDKs do) sees each scripted failure exactly once, as the in-process
port would.  A request without an API key (``x-api-key`` / ``Authorization: Bearer``) is answered 401, an
unparsable one 400, an unknown path 404.  Tool-call arguments that are not a JSON object cannot be put in
a non-streaming Anthropic answer (its ``input`` is an object); such a reply is answered 500 saying so,
never silently changed.

Standalone (for command-line tests of a program that talks to a provider)::

    python -m synapse_spec.model_server --script conversation.json [--provider openai] [--calls calls.jsonl]

prints the base URL on the first line of stdout, serves until interrupted or ``--timeout`` seconds
(default 600) pass, and appends every request, as the contract's call record, to ``--calls``.  The script
is ``{"model": "...", "replies": [...]}`` (or just the list), each reply one of ``{"text": "..."}``,
``{"toolCalls": [{"id"?, "name", "arguments": {...} | "..."}], "text"?: "..."}`` (either may carry
``"usage": {"inputOther", "output", "inputCacheRead", "inputCacheCreation"}``), or
``{"error": "message", "status"?: 500, "times"?: 1}``.  The model is the implementation's
``scripted_llm`` (``--impl``, default the reference).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import http.server
import itertools
import json
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from synapse_spec.contract import LLMClient, Message

HOST = "127.0.0.1"
ANTHROPIC_PATH = "/v1/messages"
OPENAI_PATH = "/v1/chat/completions"
PROVIDERS = ("anthropic", "openai")
FRAGMENT = 12
"""Characters per streamed text or argument fragment."""


class ScriptedHTTPError(Exception):
    """A scripted failure with the HTTP status it is answered with."""

    def __init__(self, message: str, status_code: int = 500) -> None:
        super().__init__(message)
        self.status_code = status_code


@dataclasses.dataclass
class _Served:
    """One served model, the clients derived from it per requested model name, and the arguments text
    of every tool call it answered (so a history sent back keeps the model's own formatting)."""

    model: LLMClient
    derived: dict[str, LLMClient] = dataclasses.field(default_factory=dict)
    arguments: dict[str, str] = dataclasses.field(default_factory=dict)
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def for_model(self, name: str) -> LLMClient:
        if not name or name == self.model.model_name:
            return self.model
        if name not in self.derived:
            with_model = getattr(self.model, "with_model", None)
            self.derived[name] = with_model(name) if callable(with_model) else self.model
        return self.derived[name]


class _RequestError(Exception):
    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


class ModelServer:
    """Serves models on ``127.0.0.1`` at an ephemeral port from a background thread.

    ``serve(model)`` registers a model under its own path prefix and returns its root URL; several models
    can share one server.  ``close()`` (or leaving the ``with`` block) stops it."""

    def __init__(self, *, on_call: Any = None) -> None:
        self._served: dict[str, _Served] = {}
        self._ids = itertools.count()
        self._on_call = on_call
        self._httpd = _HTTPServer((HOST, 0), _Handler)
        self._httpd.model_server = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="synapse-model-server",
            daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def serve(self, model: LLMClient, *, prefix: str | None = None) -> str:
        """Serve ``model``; returns its root URL (Anthropic base URL; OpenAI's is that plus ``/v1``)."""
        path = prefix if prefix is not None else f"/m{next(self._ids)}"
        self._served[path.rstrip("/")] = _Served(model)
        return self.url + path.rstrip("/")

    @staticmethod
    def base_url(root: str, provider: str) -> str:
        """The base URL a provider's client expects for a root returned by :meth:`serve`."""
        return root + "/v1" if provider == "openai" else root

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ModelServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request -------------------------------------------------------------------------------------
    def _route(self, path: str) -> tuple[_Served, str]:
        path = path.split("?", 1)[0]
        for suffix, provider in ((ANTHROPIC_PATH, "anthropic"), (OPENAI_PATH, "openai")):
            if path.endswith(suffix) and path[: -len(suffix)].rstrip("/") in self._served:
                return self._served[path[: -len(suffix)].rstrip("/")], provider
        raise _RequestError(404, "not_found_error", f"no model is served at {path}")

    def answer(
        self, path: str, headers: Mapping[str, str], raw: bytes
    ) -> tuple[_Served, str, dict[str, Any]]:
        served, provider = self._route(path)
        key = headers.get("x-api-key", "") if provider == "anthropic" else headers.get("authorization", "")
        if not key.removeprefix("Bearer").strip():
            raise _RequestError(401, "authentication_error", "missing API key")
        try:
            body = json.loads(raw or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise _RequestError(400, "invalid_request_error", f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            raise _RequestError(400, "invalid_request_error", "the body needs a messages list")
        return served, provider, body

    def generate(self, served: _Served, provider: str, body: Mapping[str, Any]) -> tuple[str, Any]:
        """Run the request on the served model: (model name, reply)."""
        if provider == "anthropic":
            system, messages, tools = _from_anthropic(body, served.arguments)
        else:
            system, messages, tools = _from_openai(body)
        max_tokens = body.get("max_tokens", body.get("max_completion_tokens"))
        name = str(body.get("model") or "")
        with served.lock:
            model = served.for_model(name)
            if self._on_call is not None:
                self._on_call(name, system, messages, tools, max_tokens)
            reply = asyncio.run(
                _generate(model, system, messages, tools, max_tokens if isinstance(max_tokens, int) else None)
            )
            for call in reply.message.get("toolCalls") or []:
                served.arguments[str(call.get("id"))] = str(call.get("arguments", ""))
        return name or model.model_name, reply


async def _generate(
    model: LLMClient,
    system: str,
    messages: list[Message],
    tools: list[dict[str, Any]],
    max_tokens: int | None,
) -> Any:
    return await model.generate(system, messages, tools, max_tokens=max_tokens)


class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    model_server: ModelServer


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # one small write per event: Nagle would hold each back for an ACK

    def log_message(self, format: str, *args: Any) -> None:  # the test run's output stays clean
        pass

    def do_POST(self) -> None:
        owner = self.server.model_server
        provider = "openai" if self.path.split("?", 1)[0].endswith(OPENAI_PATH) else "anthropic"
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            served, provider, body = owner.answer(
                self.path, {k.lower(): v for k, v in self.headers.items()}, raw
            )
            try:
                model, reply = owner.generate(served, provider, body)
            except Exception as exc:
                status = getattr(exc, "status_code", 500)
                status = status if isinstance(status, int) and 400 <= status <= 599 else 500
                raise _RequestError(status, _error_kind(status), str(exc) or type(exc).__name__) from exc
            if body.get("stream"):
                events = (
                    _anthropic_events(model, reply)
                    if provider == "anthropic"
                    else _openai_events(
                        model, reply, bool((body.get("stream_options") or {}).get("include_usage"))
                    )
                )
                self._send_stream(events)
            else:
                answer = (
                    _anthropic_json(model, reply) if provider == "anthropic" else _openai_json(model, reply)
                )
                self._send_json(200, answer)
        except _RequestError as error:
            self._send_json(error.status, _error_body(provider, error), {"x-should-retry": "false"})
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (an aborted request)
            pass

    def do_GET(self) -> None:
        self._send_json(404, _error_body("anthropic", _RequestError(404, "not_found_error", "POST only")))

    def _send_json(self, status: int, body: Mapping[str, Any], headers: Mapping[str, str] = {}) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, events: Iterator[tuple[str | None, str]]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        for event, data in events:
            lines = (f"event: {event}\n" if event else "") + f"data: {data}\n\n"
            self.wfile.write(lines.encode())
            self.wfile.flush()


# --------------------------------------------------------------------------------------------------------
# Requests: provider format -> the contract's call
# --------------------------------------------------------------------------------------------------------


def _text_parts(content: Any) -> list[dict[str, Any]]:
    """A string as one text part; a block list as its blocks, text blocks reduced to ``type``/``text``."""
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    parts: list[dict[str, Any]] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append({"type": "text", "text": str(block.get("text", ""))})
        elif isinstance(block, dict):
            parts.append({k: v for k, v in block.items() if k != "cache_control"})
    return parts


def _from_anthropic(
    body: Mapping[str, Any], known_arguments: Mapping[str, str]
) -> tuple[str, list[Message], list[dict[str, Any]]]:
    system = body.get("system") or ""
    if isinstance(system, list):
        system = "".join(str(b.get("text", "")) for b in system if isinstance(b, dict))
    messages: list[Message] = []
    for wire in body["messages"]:
        role, content = wire.get("role"), wire.get("content")
        if (
            role == "user"
            and isinstance(content, str)
            and content.startswith("<system>")
            and content.endswith("</system>")
        ):
            messages.append({"role": "system", "content": _text_parts(content[8:-9])})
            continue
        blocks = content if isinstance(content, list) else None
        if role == "user" and blocks and any(b.get("type") == "tool_result" for b in blocks):
            for block in blocks:
                if block.get("type") == "tool_result":
                    result = {"role": "tool", "content": _text_parts(block.get("content"))}
                    messages.append({**result, "toolCallId": str(block.get("tool_use_id", ""))})
            rest = [b for b in blocks if b.get("type") != "tool_result"]
            if rest:
                messages.append({"role": "user", "content": _text_parts(rest)})
            continue
        if role == "assistant" and blocks and any(b.get("type") == "tool_use" for b in blocks):
            calls = []
            for block in blocks:
                if block.get("type") == "tool_use":
                    call_id = str(block.get("id", ""))
                    calls.append(
                        {
                            "id": call_id,
                            "name": str(block.get("name", "")),
                            "arguments": _arguments_text(block.get("input"), known_arguments.get(call_id)),
                        }
                    )
            text = _text_parts([b for b in blocks if b.get("type") != "tool_use"])
            messages.append({"role": "assistant", "content": text, "toolCalls": calls})
            continue
        messages.append({"role": str(role), "content": _text_parts(content)})
    tools = [
        {
            "name": t.get("name"),
            "description": t.get("description", ""),
            "parameters": t.get("input_schema", {}),
        }
        for t in body.get("tools") or []
    ]
    return str(system), messages, tools


def _arguments_text(value: Any, known: str | None) -> str:
    if known is not None:
        try:
            if json.loads(known) == value:
                return known
        except json.JSONDecodeError:
            pass
    return json.dumps(value if value is not None else {}, ensure_ascii=False, separators=(",", ":"))


def _from_openai(body: Mapping[str, Any]) -> tuple[str, list[Message], list[dict[str, Any]]]:
    wire_messages = list(body["messages"])
    system = ""
    if wire_messages and wire_messages[0].get("role") in ("system", "developer"):
        first = _text_parts(wire_messages.pop(0).get("content"))
        system = "".join(str(p.get("text", "")) for p in first)
    messages: list[Message] = []
    for wire in wire_messages:
        role = str(wire.get("role"))
        message: Message = {"role": role, "content": _text_parts(wire.get("content"))}
        if role == "assistant" and wire.get("tool_calls"):
            message["toolCalls"] = [
                {
                    "id": str(c.get("id", "")),
                    "name": str((c.get("function") or {}).get("name", "")),
                    "arguments": str((c.get("function") or {}).get("arguments", "")),
                }
                for c in wire["tool_calls"]
            ]
        if role == "tool":
            message["toolCallId"] = str(wire.get("tool_call_id", ""))
        messages.append(message)
    tools = []
    for tool in body.get("tools") or []:
        function = tool.get("function") or {}
        tools.append(
            {
                "name": function.get("name"),
                "description": function.get("description", ""),
                "parameters": function.get("parameters", {}),
            }
        )
    return system, messages, tools


# --------------------------------------------------------------------------------------------------------
# Replies: the contract's reply -> provider format
# --------------------------------------------------------------------------------------------------------


def _usage(reply: Any) -> dict[str, int]:
    raw = dict(getattr(reply, "usage", None) or {})
    return {k: int(raw.get(k, 0)) for k in ("inputOther", "output", "inputCacheRead", "inputCacheCreation")}


def _texts(reply: Any) -> list[str]:
    return [str(p.get("text", "")) for p in reply.message.get("content") or [] if p.get("type") == "text"]


def _calls(reply: Any) -> list[dict[str, str]]:
    return [
        {"id": str(c.get("id", "")), "name": str(c.get("name", "")), "arguments": str(c.get("arguments", ""))}
        for c in reply.message.get("toolCalls") or []
    ]


def _anthropic_usage(usage: Mapping[str, int]) -> dict[str, int]:
    return {
        "input_tokens": usage["inputOther"],
        "output_tokens": usage["output"],
        "cache_creation_input_tokens": usage["inputCacheCreation"],
        "cache_read_input_tokens": usage["inputCacheRead"],
    }


def _openai_usage(usage: Mapping[str, int]) -> dict[str, Any]:
    prompt = usage["inputOther"] + usage["inputCacheRead"] + usage["inputCacheCreation"]
    return {
        "prompt_tokens": prompt,
        "completion_tokens": usage["output"],
        "total_tokens": prompt + usage["output"],
        "prompt_tokens_details": {
            "cached_tokens": usage["inputCacheRead"],
            "cache_write_tokens": usage["inputCacheCreation"],
        },
    }


_counter = itertools.count(1)


def _anthropic_json(model: str, reply: Any) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": t} for t in _texts(reply)]
    for call in _calls(reply):
        try:
            arguments = json.loads(call["arguments"] or "{}")
        except json.JSONDecodeError:
            arguments = None
        if not isinstance(arguments, dict):
            raise _RequestError(
                500,
                "api_error",
                f"tool call {call['id']} has arguments {call['arguments']!r}, not a JSON object: a "
                "non-streaming Anthropic answer cannot carry them (request with stream: true)",
            )
        content.append({"type": "tool_use", "id": call["id"], "name": call["name"], "input": arguments})
    return {
        "id": f"msg_loopback_{next(_counter)}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if _calls(reply) else "end_turn",
        "stop_sequence": None,
        "usage": _anthropic_usage(_usage(reply)),
    }


def _fragments(text: str) -> list[str]:
    return [text[i : i + FRAGMENT] for i in range(0, len(text), FRAGMENT)] or [""]


def _anthropic_events(model: str, reply: Any) -> Iterator[tuple[str | None, str]]:
    usage = _anthropic_usage(_usage(reply))
    start_usage = {**usage, "output_tokens": min(usage["output_tokens"], 1)}
    message: dict[str, Any] = {
        "id": f"msg_loopback_{next(_counter)}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }

    def event(kind: str, **data: Any) -> tuple[str, str]:
        return kind, json.dumps({"type": kind, **data})

    yield event("message_start", message=message)
    yield event("ping")
    index = 0
    for text in _texts(reply):
        yield event("content_block_start", index=index, content_block={"type": "text", "text": ""})
        for piece in _fragments(text):
            yield event("content_block_delta", index=index, delta={"type": "text_delta", "text": piece})
        yield event("content_block_stop", index=index)
        index += 1
    for call in _calls(reply):
        block = {"type": "tool_use", "id": call["id"], "name": call["name"], "input": {}}
        yield event("content_block_start", index=index, content_block=block)
        for piece in _fragments(call["arguments"]):
            yield event(
                "content_block_delta", index=index, delta={"type": "input_json_delta", "partial_json": piece}
            )
        yield event("content_block_stop", index=index)
        index += 1
    stop = "tool_use" if _calls(reply) else "end_turn"
    yield event(
        "message_delta",
        delta={"stop_reason": stop, "stop_sequence": None},
        usage={"output_tokens": usage["output_tokens"]},
    )
    yield event("message_stop")


def _openai_json(model: str, reply: Any) -> dict[str, Any]:
    texts, calls = _texts(reply), _calls(reply)
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls
        ]
    return {
        "id": f"chatcmpl-loopback-{next(_counter)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": _openai_usage(_usage(reply)),
    }


def _openai_events(model: str, reply: Any, include_usage: bool) -> Iterator[tuple[str | None, str]]:
    ident, created = f"chatcmpl-loopback-{next(_counter)}", int(time.time())

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> tuple[None, str]:
        body = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model}
        return None, json.dumps({**body, "choices": choices, **extra})

    def delta(**fields: Any) -> list[dict[str, Any]]:
        return [{"index": 0, "delta": fields, "finish_reason": None}]

    yield chunk(delta(role="assistant", content=""))
    for text in _texts(reply):
        for piece in _fragments(text):
            yield chunk(delta(content=piece))
    for index, call in enumerate(_calls(reply)):
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["name"], "arguments": ""},
        }
        yield chunk(delta(tool_calls=[head]))
        for piece in _fragments(call["arguments"]):
            yield chunk(delta(tool_calls=[{"index": index, "function": {"arguments": piece}}]))
    finish = "tool_calls" if _calls(reply) else "stop"
    yield chunk([{"index": 0, "delta": {}, "finish_reason": finish}])
    if include_usage:
        yield chunk([], usage=_openai_usage(_usage(reply)))
    yield None, "[DONE]"


def _error_kind(status: int) -> str:
    kinds = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        429: "rate_limit_error",
        529: "overloaded_error",
    }
    return kinds.get(status, "api_error")


def _error_body(provider: str, error: _RequestError) -> dict[str, Any]:
    if provider == "anthropic":
        return {"type": "error", "error": {"type": error.kind, "message": error.message}}
    return {"error": {"message": error.message, "type": error.kind, "code": None}}


# --------------------------------------------------------------------------------------------------------
# Standalone: python -m synapse_spec.model_server --script FILE.json
# --------------------------------------------------------------------------------------------------------


def load_script(path: Path, build: Any) -> Any:
    """A scripted model built with ``build(model_name)`` and scripted from the JSON file at ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    replies: Sequence[Any] = data if isinstance(data, list) else data.get("replies", [])
    model = build(str(data.get("model", "scripted-model")) if isinstance(data, dict) else "scripted-model")
    for number, step in enumerate(replies, start=1):
        if not isinstance(step, dict):
            raise ValueError(f"{path}: reply {number} is not an object")
        usage = step.get("usage")
        if "error" in step:
            failure = ScriptedHTTPError(str(step["error"]), int(step.get("status", 500)))
            model.fail(failure, times=int(step.get("times", 1)))
        elif step.get("toolCalls"):
            model.reply_tool_calls(step["toolCalls"], text=str(step.get("text", "")), usage=usage)
        elif "text" in step:
            model.reply_text(str(step["text"]), usage=usage)
        else:
            raise ValueError(f"{path}: reply {number} needs text, toolCalls or error")
    return model


def _call_recorder(path: Path | None) -> Any:
    if path is None:
        return None

    def record(model: str, system: str, messages: Any, tools: Any, max_tokens: Any) -> None:
        line = {
            "model": model,
            "systemPrompt": system,
            "messages": messages,
            "tools": tools,
            "maxTokens": max_tokens,
        }
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")

    return record


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    from synapse_spec.plugin import DEFAULT_IMPL, load_implementation

    parser = argparse.ArgumentParser(
        prog="python -m synapse_spec.model_server",
        description="Serve a scripted model on 127.0.0.1 in the Anthropic and OpenAI wire formats.",
    )
    parser.add_argument("--script", type=Path, required=True, help="JSON file of the scripted replies")
    parser.add_argument("--provider", choices=PROVIDERS, default="anthropic", help="whose base URL to print")
    parser.add_argument("--calls", type=Path, default=None, help="append every request (JSON lines) here")
    parser.add_argument("--timeout", type=float, default=600.0, help="stop after this many seconds")
    parser.add_argument("--impl", default=DEFAULT_IMPL, help="implementation whose scripted_llm is served")
    args = parser.parse_args(argv)
    out = stdout if stdout is not None else sys.stdout
    try:
        model = load_script(args.script, lambda name: load_implementation(args.impl)().scripted_llm(name))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"model_server: cannot load {args.script}: {exc}", file=sys.stderr)
        return 2
    with ModelServer(on_call=_call_recorder(args.calls)) as server:
        root = server.serve(model, prefix="")
        out.write(ModelServer.base_url(root, args.provider) + "\n")
        out.flush()
        with contextlib.suppress(KeyboardInterrupt):
            time.sleep(args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
