"""Retries, errors, timeouts, abort and the provider factory of the HTTP model clients."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
import respx

from synapse_ref.llm import make_llm_client
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
    UnknownProviderError,
)
from synapse_ref.llm.http_client import HttpLLMClient
from tests.llm_support import ANTHROPIC_URL, OPENAI_URL, RecordingSleep, recorded_json, text

KEY = "sk-ant-secret-never-shown"
ENV = {"ANTHROPIC_API_KEY": KEY, "OPENAI_API_KEY": KEY}
HELLO = [{"role": "user", "content": [text("hello")]}]
OK = httpx.Response(200, json=recorded_json("anthropic_message.json"))


def client(
    provider: str = "anthropic", *, stream: bool = False, sleep: RecordingSleep | None = None
) -> HttpLLMClient:
    made = make_llm_client(provider, "model-x", env=ENV, stream=stream, sleep=sleep or RecordingSleep())
    assert isinstance(made, HttpLLMClient)
    return made


def anthropic_error(status: int, kind: str, message: str, **headers: str) -> httpx.Response:
    return httpx.Response(
        status, json={"type": "error", "error": {"type": kind, "message": message}}, headers=headers
    )


def generate(llm: HttpLLMClient, signal: Any = None) -> Any:
    return asyncio.run(llm.generate("s", HELLO, signal=signal))


# -- retries ----------------------------------------------------------------------------------------------


@respx.mock
def test_429_is_retried_after_the_delay_the_server_asks_for() -> None:
    route = respx.post(ANTHROPIC_URL).mock(
        side_effect=[anthropic_error(429, "rate_limit_error", "slow down", **{"retry-after": "3"}), OK]
    )
    sleep = RecordingSleep()
    reply = generate(client(sleep=sleep))
    assert route.call_count == 2 and sleep.delays == [3.0]
    assert reply.message["toolCalls"][0]["name"] == "Bash"


@respx.mock
def test_retry_after_ms_wins_and_an_absurd_delay_falls_back_to_backoff() -> None:
    respx.post(ANTHROPIC_URL).mock(
        side_effect=[
            anthropic_error(429, "rate_limit_error", "a", **{"retry-after-ms": "250", "retry-after": "1"}),
            anthropic_error(429, "rate_limit_error", "b", **{"retry-after": "86400"}),
            OK,
        ]
    )
    sleep = RecordingSleep()
    generate(client(sleep=sleep))
    assert sleep.delays == [0.25, 1.0]


@respx.mock
def test_5xx_and_connection_errors_back_off_exponentially_then_give_up() -> None:
    route = respx.post(OPENAI_URL).mock(
        side_effect=[
            httpx.Response(503, json={"error": {"message": "upstream unavailable", "type": "server_error"}}),
            httpx.ConnectError("connection refused"),
            httpx.Response(500, json={"error": {"message": "still broken", "type": "server_error"}}),
        ]
    )
    sleep = RecordingSleep()
    with pytest.raises(APIStatusError, match=r"OpenAI API error 500: still broken") as raised:
        generate(client("openai", sleep=sleep))
    assert raised.value.status_code == 500
    assert route.call_count == 3 and sleep.delays == [0.5, 1.0]


@respx.mock
def test_a_connection_that_never_comes_back_raises_a_connection_error() -> None:
    respx.post(ANTHROPIC_URL).mock(side_effect=httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(APIConnectionError, match="Connection refused"):
        generate(client())


@respx.mock
def test_a_timeout_is_retried_and_then_reported() -> None:
    route = respx.post(ANTHROPIC_URL).mock(side_effect=httpx.ReadTimeout("timed out"))
    with pytest.raises(APITimeoutError, match="timed out"):
        generate(client())
    assert route.call_count == 3


@respx.mock
def test_the_server_can_forbid_a_retry() -> None:
    route = respx.post(ANTHROPIC_URL).mock(
        return_value=anthropic_error(500, "api_error", "scripted failure", **{"x-should-retry": "false"})
    )
    sleep = RecordingSleep()
    with pytest.raises(APIStatusError, match="scripted failure"):
        generate(client(sleep=sleep))
    assert route.call_count == 1 and sleep.delays == []


@respx.mock
def test_a_stream_that_breaks_after_showing_text_is_not_retried() -> None:
    class Broken(httpx.AsyncByteStream):
        async def __aiter__(self) -> Any:
            yield (
                b"event: content_block_delta\n"
                b'data: {"type":"content_block_delta","index":0,'
                b'"delta":{"type":"text_delta","text":"Hal"}}\n\n'
            )
            raise httpx.ReadError("connection reset by peer")

    route = respx.post(ANTHROPIC_URL).mock(
        return_value=httpx.Response(200, stream=Broken(), headers={"content-type": "text/event-stream"})
    )
    with pytest.raises(APIConnectionError, match="connection reset"):
        generate(client(stream=True))
    assert route.call_count == 1


def test_a_timeout_is_a_kind_of_connection_error() -> None:
    assert issubclass(APITimeoutError, APIConnectionError)
    assert issubclass(APITimeoutError, ProviderError)


@respx.mock
def test_a_timeout_is_caught_as_a_connection_error() -> None:
    route = respx.post(ANTHROPIC_URL).mock(side_effect=httpx.ConnectTimeout("timed out"))
    sleep = RecordingSleep()
    with pytest.raises(APIConnectionError, match="timed out") as raised:
        generate(client(sleep=sleep))
    assert isinstance(raised.value, APITimeoutError)
    assert route.call_count == 3 and sleep.delays == [0.5, 1.0]


MESSAGE_START = (
    b"event: message_start\n"
    b'data: {"type":"message_start",'
    b'"message":{"id":"msg_1","usage":{"input_tokens":3,"output_tokens":1}}}\n\n'
)
TOOL_USE_START = (
    b"event: content_block_start\n"
    b'data: {"type":"content_block_start","index":0,'
    b'"content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}}\n\n'
)
JSON_DELTA = (
    b"event: content_block_delta\n"
    b'data: {"type":"content_block_delta","index":0,'
    b'"delta":{"type":"input_json_delta","partial_json":"{\\"command\\":"}}\n\n'
)


def breaking_stream(*chunks: bytes) -> httpx.Response:
    """A 200 event stream that sends ``chunks`` and then loses its connection."""

    class Broken(httpx.AsyncByteStream):
        async def __aiter__(self) -> Any:
            for chunk in chunks:
                yield chunk
            raise httpx.ReadError("connection reset by peer")

    return httpx.Response(200, stream=Broken(), headers={"content-type": "text/event-stream"})


@pytest.mark.parametrize(
    "received",
    [(MESSAGE_START,), (MESSAGE_START, TOOL_USE_START), (MESSAGE_START, TOOL_USE_START, JSON_DELTA)],
    ids=["message_start", "tool_use_start", "json_delta"],
)
@respx.mock
def test_a_stream_that_breaks_after_any_event_is_not_retried(received: tuple[bytes, ...]) -> None:
    route = respx.post(ANTHROPIC_URL).mock(side_effect=lambda request: breaking_stream(*received))
    sleep = RecordingSleep()
    with pytest.raises(APIConnectionError, match="connection reset"):
        generate(client(stream=True, sleep=sleep))
    assert route.call_count == 1 and sleep.delays == []


@respx.mock
def test_a_stream_that_breaks_before_any_event_is_retried() -> None:
    route = respx.post(ANTHROPIC_URL).mock(side_effect=lambda request: breaking_stream())
    sleep = RecordingSleep()
    with pytest.raises(APIConnectionError, match="connection reset"):
        generate(client(stream=True, sleep=sleep))
    assert route.call_count == 3 and sleep.delays == [0.5, 1.0]


@respx.mock
def test_retries_are_logged_without_the_key(caplog: pytest.LogCaptureFixture) -> None:
    respx.post(ANTHROPIC_URL).mock(side_effect=[anthropic_error(529, "overloaded_error", "Overloaded"), OK])
    with caplog.at_level(logging.INFO, logger="synapse"):
        generate(client())
    assert any("Overloaded" in r.getMessage() for r in caplog.records)
    assert all(KEY not in r.getMessage() for r in caplog.records)


# -- errors that are not retried --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "error", "message"),
    [
        (401, AuthenticationError, "invalid x-api-key"),
        (403, AuthenticationError, "Your API key does not have permission to use the specified resource."),
        (400, BadRequestError, "messages.1.content: Input should be a valid list"),
        (404, BadRequestError, "model: claude-nonexistent"),
    ],
)
@respx.mock
def test_client_errors_raise_at_once_with_the_api_message(
    status: int, error: type[Exception], message: str
) -> None:
    route = respx.post(ANTHROPIC_URL).mock(
        return_value=anthropic_error(status, "invalid_request_error", message)
    )
    with pytest.raises(error) as raised:
        generate(client())
    assert route.call_count == 1
    assert str(raised.value) == f"Anthropic API error {status}: {message}"
    assert KEY not in str(raised.value)


@respx.mock
def test_an_openai_auth_error_reads_the_openai_error_body() -> None:
    body = {
        "error": {
            "message": "Incorrect API key provided: sk-proj-****.",
            "type": "invalid_request_error",
            "code": "invalid_api_key",
        }
    }
    respx.post(OPENAI_URL).mock(return_value=httpx.Response(401, json=body))
    with pytest.raises(AuthenticationError, match="Incorrect API key provided"):
        generate(client("openai"))


@respx.mock
def test_a_rate_limit_that_outlasts_the_retries_says_so() -> None:
    respx.post(ANTHROPIC_URL).mock(
        return_value=anthropic_error(
            429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"
        )
    )
    with pytest.raises(RateLimitError, match="per-minute rate limit"):
        generate(client())


@respx.mock
def test_an_error_without_a_json_body_shows_its_text() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=httpx.Response(502, text="<html>Bad Gateway</html>"))
    with pytest.raises(APIStatusError, match="Bad Gateway"):
        generate(client())


@pytest.mark.parametrize("stream", [False, True])
@respx.mock
def test_an_answer_without_text_or_tool_calls_is_an_error(stream: bool) -> None:
    empty = {**recorded_json("anthropic_message.json"), "content": []}
    answer = httpx.Response(200, json=empty)
    if stream:
        events = (
            b'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n'
            b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
        )
        answer = httpx.Response(200, content=events, headers={"content-type": "text/event-stream"})
    respx.post(ANTHROPIC_URL).mock(return_value=answer)
    with pytest.raises(APIEmptyResponseError, match="API returned an empty response"):
        generate(client(stream=stream))


@respx.mock
def test_an_answer_that_is_not_json_is_reported() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=httpx.Response(200, text="upstream says hi"))
    with pytest.raises(ProviderError, match="not JSON"):
        generate(client())


# -- abort ------------------------------------------------------------------------------------------------


class FlippingSignal:
    """Reads aborted once ``after`` checks have passed."""

    def __init__(self, after: int) -> None:
        self.checks, self.after = 0, after

    @property
    def aborted(self) -> bool:
        self.checks += 1
        return self.checks > self.after


@respx.mock
def test_an_abort_cancels_the_request_in_flight() -> None:
    cancelled: list[bool] = []

    async def slow(request: httpx.Request) -> httpx.Response:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return OK

    respx.post(ANTHROPIC_URL).mock(side_effect=slow)
    with pytest.raises(Exception) as raised:
        generate(client(), signal=FlippingSignal(after=2))
    assert type(raised.value).__name__ == "AbortError" and "aborted" in str(raised.value).lower()
    assert cancelled == [True]


@respx.mock
def test_an_aborted_signal_sends_nothing() -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=OK)
    with pytest.raises(Exception, match="aborted"):
        generate(client(), signal=FlippingSignal(after=0))
    assert not route.called


@respx.mock
def test_an_abort_during_the_wait_before_a_retry_stops_retrying() -> None:
    route = respx.post(ANTHROPIC_URL).mock(
        return_value=anthropic_error(529, "overloaded_error", "Overloaded")
    )

    class Aborting:
        aborted = False

        async def __call__(self, seconds: float) -> None:
            self.aborted = True
            await asyncio.sleep(30)

    aborting = Aborting()
    llm = make_llm_client("anthropic", "m", env=ENV, stream=False, sleep=aborting)
    with pytest.raises(Exception, match="aborted"):
        asyncio.run(llm.generate("s", HELLO, signal=aborting))
    assert route.call_count == 1


# -- the factory ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "variable"), [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")]
)
def test_a_missing_key_names_the_variable(provider: str, variable: str) -> None:
    with pytest.raises(MissingAPIKeyError, match=variable):
        make_llm_client(provider, "m", env={variable: "  "})


def test_an_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(UnknownProviderError, match="anthropic, openai, echo"):
        make_llm_client("gemini", "m", env=ENV)


def test_the_defaults_of_the_factory() -> None:
    anthropic = make_llm_client("Anthropic", "", env=ENV)
    assert isinstance(anthropic, HttpLLMClient)
    assert anthropic.model_name == "claude-sonnet-4-5" and anthropic.base_url == "https://api.anthropic.com"
    openai = make_llm_client("openai", "gpt-4.1", env=ENV)
    assert isinstance(openai, HttpLLMClient) and openai.base_url == "https://api.openai.com/v1"
    with pytest.raises(ProviderError, match="needs a model name"):
        make_llm_client("openai", " ", env=ENV)
    assert KEY not in repr(anthropic) and KEY not in repr(openai)


def test_the_echo_provider_needs_no_key_and_answers_offline() -> None:
    echo = make_llm_client("echo", "", env={})
    reply = asyncio.run(echo.generate("You are Synapse", HELLO))
    assert echo.model_name == "synapse-echo"
    assert reply.message["role"] == "assistant" and reply.message["content"]
