"""A model client over HTTP: one request per ``generate``, streamed or not, with retries, timeouts and abort.

* **Retries.** 408, 409, 429 and 5xx answers, timeouts and connection errors are retried up to
  ``max_retries`` times, waiting ``retry-after-ms`` / ``retry-after`` when the server names a delay of at
  most a minute, else 0.5 s, 1 s, 2 s ... (at most 8 s) through the injected ``sleep``.  A server's
  ``x-should-retry: true|false`` header overrides that choice, as the providers' own SDKs honour it.  A
  stream that has begun (any event received, text or not) is never sent again; one that fails before its
  first event is retried like any other request.
* **Errors.** 401/403 raise :class:`AuthenticationError`, 429 :class:`RateLimitError`, other 4xx
  :class:`BadRequestError`, anything else :class:`APIStatusError`, each with the message of the API's
  error body; an error reported inside a stream (Anthropic's ``event: error``, an OpenAI error chunk)
  raises :class:`ProviderError` with its message, as it comes without a status of its own; a timeout
  raises :class:`APITimeoutError`, a kind of :class:`APIConnectionError`; an answer without text or tool
  calls raises :class:`APIEmptyResponseError`.
* **Abort.** The signal is polled while a request is in flight; once it reads aborted the request is
  cancelled (its connection closed) and the agent's ``AbortError`` is raised.
* **Streaming.** :meth:`HttpLLMClient.stream` yields the text as it arrives; ``on_text`` reports it from
  :meth:`generate` too, so an agent loop that only knows ``generate`` can still print replies live.

Each request opens its own ``httpx.AsyncClient``: callers may run every call in a new event loop
(``asyncio.run`` per step), and a pooled connection must not outlive the loop it was made in.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import httpx
from httpx_sse import EventSource, SSEError

from synapse_ref.llm.errors import (
    APIConnectionError,
    APIEmptyResponseError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    MissingAPIKeyError,
    ProviderError,
    RateLimitError,
)
from synapse_ref.llm.ports import AbortSignal
from synapse_ref.llm.wire import Message, WireFormat

logger = logging.getLogger("synapse.llm.http")

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
TextListener = Callable[[str], None]

DEFAULT_TIMEOUT = 600.0
CONNECT_TIMEOUT = 10.0
DEFAULT_MAX_RETRIES = 2
MAX_RETRY_AFTER = 60.0
_RETRY_STATUS = frozenset({408, 409, 429})


@dataclass(frozen=True)
class HttpReply:
    """One answer: the assistant message (text parts and ``toolCalls``) and its token usage."""

    message: Message
    usage: dict[str, int]


@dataclass(frozen=True)
class _Settings:
    wire: WireFormat
    model: str
    api_key: str
    base_url: str
    stream: bool
    default_max_tokens: int
    timeout: float
    max_retries: int
    sleep: Sleep
    transport: httpx.AsyncBaseTransport | None
    on_text: TextListener | None
    poll_interval: float


class _Retryable(Exception):
    def __init__(self, error: ProviderError, delay: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.delay = delay


class HttpLLMClient:
    """The ``LLMClient`` port over a provider's HTTP API (see :mod:`synapse_ref.llm.providers` for the
    factory that reads keys and base URLs from the environment)."""

    def __init__(
        self,
        wire: WireFormat,
        *,
        model: str,
        api_key: str,
        base_url: str,
        stream: bool = True,
        default_max_tokens: int = 4096,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        sleep: Sleep | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        on_text: TextListener | None = None,
        poll_interval: float = 0.05,
    ) -> None:
        if not api_key.strip():
            raise MissingAPIKeyError(f"{wire.provider}: no API key configured")
        self._s = _Settings(
            wire,
            model,
            api_key.strip(),
            base_url,
            stream,
            default_max_tokens,
            timeout,
            max(max_retries, 0),
            sleep if sleep is not None else asyncio.sleep,
            transport,
            on_text,
            poll_interval,
        )

    def __repr__(self) -> str:
        return (
            f"HttpLLMClient({self._s.wire.provider}, model={self._s.model!r}, base_url={self._s.base_url!r})"
        )

    @classmethod
    def _from(cls, settings: _Settings) -> HttpLLMClient:
        client = cls.__new__(cls)
        client._s = settings
        return client

    # -- the LLMClient port ------------------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return self._s.model

    @property
    def base_url(self) -> str:
        return self._s.base_url

    def with_model(self, model: str) -> HttpLLMClient:
        """A client for another model on the same provider, key and settings (blank: this client)."""
        name = model.strip()
        return self if not name or name == self._s.model else self._from(replace(self._s, model=name))

    def with_text_listener(self, on_text: TextListener | None) -> HttpLLMClient:
        """A client whose ``generate`` reports each piece of reply text as it arrives."""
        return self._from(replace(self._s, on_text=on_text))

    async def generate(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: AbortSignal | None = None,
    ) -> HttpReply:
        body = self._s.wire.body(
            self._s.model,
            system_prompt,
            messages,
            tools,
            max_tokens if max_tokens is not None else self._s.default_max_tokens,
            self._s.stream,
        )
        return await self._request(body, self._s.on_text, signal)

    def stream(
        self,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] = (),
        *,
        max_tokens: int | None = None,
        signal: AbortSignal | None = None,
    ) -> ReplyStream:
        """The reply's text as it arrives; the whole reply is ``.reply`` once the iteration ends."""
        streaming = self if self._s.stream else self._from(replace(self._s, stream=True))
        return ReplyStream(streaming, system_prompt, messages, tools, max_tokens, signal)

    # -- transport ---------------------------------------------------------------------------------------
    async def _request(
        self, body: dict[str, Any], on_text: TextListener | None, signal: AbortSignal | None
    ) -> HttpReply:
        started = [False]

        def on_event() -> None:
            started[0] = True

        def listener(text: str) -> None:
            if on_text is not None:
                on_text(text)

        attempt = 0
        while True:
            _throw_if_aborted(signal)
            try:
                return await self._abortable(self._attempt(body, listener, on_event), signal)
            except _Retryable as retry:
                # A stream that has begun is not sent again: what it delivered may already be in use.
                if attempt >= self._s.max_retries or started[0]:
                    raise retry.error from None
                delay = retry.delay if retry.delay is not None else min(0.5 * 2**attempt, 8.0)
                logger.info("%s; retrying in %.2f s (retry %d)", retry.error, delay, attempt + 1)
                await self._abortable(self._s.sleep(delay), signal)
                attempt += 1

    async def _attempt(
        self, body: dict[str, Any], on_text: TextListener, on_event: Callable[[], None]
    ) -> HttpReply:
        wire = self._s.wire
        timeout = httpx.Timeout(self._s.timeout, connect=min(CONNECT_TIMEOUT, self._s.timeout))
        headers = wire.headers(self._s.api_key)
        # ASCII JSON: a lone surrogate (text restored from a file name or file no encoding could hold)
        # travels as its \u escape, which httpx's own UTF-8 encoding of ``json=`` cannot write.
        content = json.dumps(body).encode("ascii")
        try:
            async with httpx.AsyncClient(timeout=timeout, transport=self._s.transport, verify=_tls()) as http:
                if not self._s.stream:
                    response = await http.post(wire.url(self._s.base_url), content=content, headers=headers)
                    self._raise_for_status(response)
                    message, usage = wire.parse(self._json(response))
                    text = "".join(p["text"] for p in message["content"])
                    if text:
                        on_text(text)
                    return self._reply(message, usage)
                headers = {**headers, "accept": "text/event-stream"}
                async with http.stream(
                    "POST", wire.url(self._s.base_url), content=content, headers=headers
                ) as response:
                    if response.status_code >= 400:
                        await response.aread()
                    self._raise_for_status(response)
                    return await self._read_stream(response, on_text, on_event)
        except httpx.TimeoutException as exc:
            raise _Retryable(APITimeoutError(f"{wire.provider}: request timed out ({exc})")) from exc
        except httpx.TransportError as exc:
            error = APIConnectionError(f"{wire.provider}: connection failed: {exc or type(exc).__name__}")
            raise _Retryable(error) from exc

    async def _read_stream(
        self, response: httpx.Response, on_text: TextListener, on_event: Callable[[], None]
    ) -> HttpReply:
        """Assemble the stream's events; ``on_event`` hears of each one as it arrives."""
        wire = self._s.wire
        assembler = wire.assembler()
        try:
            async for event in EventSource(response).aiter_sse():
                on_event()
                if not event.data or wire.is_stream_end(event.data):
                    continue
                try:
                    data = json.loads(event.data)
                except json.JSONDecodeError:
                    raise ProviderError(
                        f"{wire.provider}: malformed stream event {event.data[:200]!r}"
                    ) from None
                if not isinstance(data, dict):
                    continue
                failure = wire.stream_error(event.event, data)
                if failure is not None:
                    # Not a status error: the answer's status (200) said the stream had begun fine.
                    raise ProviderError(f"{wire.provider} stream error: {failure}")
                text = assembler.feed(event.event, data)
                if text:
                    on_text(text)
        except SSEError as exc:
            raise ProviderError(f"{wire.provider}: {exc}") from None
        message, usage = assembler.result()
        return self._reply(message, usage)

    def _reply(self, message: Message, usage: dict[str, int]) -> HttpReply:
        if not message["content"] and not message.get("toolCalls"):
            raise APIEmptyResponseError()
        return HttpReply(message, usage)

    def _json(self, response: httpx.Response) -> Mapping[str, Any]:
        try:
            body = response.json()
        except ValueError:
            raise ProviderError(
                f"{self._s.wire.provider}: the answer is not JSON: {response.text[:200]!r}"
            ) from None
        if not isinstance(body, dict):
            raise ProviderError(f"{self._s.wire.provider}: the answer is not a JSON object")
        return body

    def _raise_for_status(self, response: httpx.Response) -> None:
        status = response.status_code
        if status < 400:
            return
        provider = self._s.wire.provider
        message = _error_message(response)
        should_retry = response.headers.get("x-should-retry", "").lower()
        retry = status in _RETRY_STATUS or status >= 500
        if should_retry in ("true", "false"):
            retry = should_retry == "true"
        if status in (401, 403):
            error: APIStatusError = AuthenticationError(provider, status, message)
        elif status == 429:
            error = RateLimitError(provider, status, message)
        elif status < 500 and status not in _RETRY_STATUS:
            error = BadRequestError(provider, status, message)
        else:
            error = APIStatusError(provider, status, message)
        if retry:
            raise _Retryable(error, _retry_after(response.headers))
        raise error

    async def _abortable(self, awaitable: Awaitable[T], signal: AbortSignal | None) -> T:
        """Await, cancelling the work as soon as ``signal`` reads aborted."""
        if signal is None:
            return await awaitable
        task = asyncio.ensure_future(awaitable)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self._s.poll_interval)
                if done:
                    return task.result()
                if signal.aborted:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                    raise _aborted()
        finally:
            if not task.done():
                task.cancel()


class ReplyStream:
    """``async for text in client.stream(...)``: the reply's text pieces in order; afterwards ``reply``
    holds the whole answer (tool calls and usage included).  Leaving the loop early cancels the request."""

    def __init__(
        self,
        client: HttpLLMClient,
        system_prompt: str,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        max_tokens: int | None,
        signal: AbortSignal | None,
    ) -> None:
        self._call = (client, system_prompt, list(messages), list(tools), max_tokens, signal)
        self._reply: HttpReply | None = None

    @property
    def reply(self) -> HttpReply:
        if self._reply is None:
            raise RuntimeError("the stream has not been read to its end yet")
        return self._reply

    def __aiter__(self) -> AsyncIterator[str]:
        return self._texts()

    async def _texts(self) -> AsyncIterator[str]:
        client, system_prompt, messages, tools, max_tokens, signal = self._call
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        listening = client.with_text_listener(queue.put_nowait)
        task = asyncio.ensure_future(
            listening.generate(system_prompt, messages, tools, max_tokens=max_tokens, signal=signal)
        )
        task.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while (text := await queue.get()) is not None:
                yield text
            self._reply = task.result()
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


@functools.cache
def _tls() -> ssl.SSLContext:
    """The certificate store, loaded once: loading it takes longer than a request to a local server."""
    return httpx.create_ssl_context()


def _aborted() -> Exception:
    # Imported here: the agent package imports the model port, so a top-level import would be circular.
    from synapse_ref.agent.abort import AbortError

    return AbortError("Request aborted")


def _throw_if_aborted(signal: AbortSignal | None) -> None:
    if signal is not None and signal.aborted:
        raise _aborted()


def _error_message(response: httpx.Response) -> str:
    """The message of an error body in either provider's shape, else the body text or the reason."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str) and error:
            return error
        if body.get("message"):
            return str(body["message"])
    text = response.text.strip()
    return text[:500] if text else response.reason_phrase or "no error message"


def _retry_after(headers: httpx.Headers) -> float | None:
    """The delay a 429/5xx asks for, in seconds, when it is a number of at most a minute."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            delay = float(value) / scale
        except ValueError:
            continue
        if 0 <= delay <= MAX_RETRY_AFTER:
            return delay
    return None
