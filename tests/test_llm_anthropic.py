"""The Anthropic Messages client: what it sends, and how it reads JSON and streamed answers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import respx

from synapse_ref.llm import make_llm_client
from synapse_ref.llm.errors import APIStatusError, ProviderError
from synapse_ref.llm.http_client import HttpLLMClient
from tests.llm_support import ANTHROPIC_URL, faker, recorded_json, sent, sse, text

ENV = {"ANTHROPIC_API_KEY": "sk-ant-test-key"}
BASH = {"name": "Bash", "description": "Run a shell command", "parameters": {"type": "object"}}
READ = {
    "name": "Read",
    "description": "Read a file",
    "input_schema": {"type": "object", "required": ["path"]},
}


def client(*, stream: bool = True, env: dict[str, str] | None = None) -> HttpLLMClient:
    made = make_llm_client("anthropic", "claude-sonnet-4-5", env=env or ENV, stream=stream)
    assert isinstance(made, HttpLLMClient)
    return made


def history() -> list[dict[str, Any]]:
    fake = faker()
    return [
        {"role": "user", "content": [text(fake.sentence())]},
        {
            "role": "assistant",
            "content": [text("Running it.")],
            "toolCalls": [{"id": "toolu_1", "name": "Bash", "arguments": '{"command":"npm test"}'}],
        },
        {"role": "tool", "content": [text(fake.paragraph())], "toolCallId": "toolu_1"},
        {"role": "system", "content": [text("Context was compacted.")]},
        {"role": "user", "content": [text(fake.sentence()), text(fake.sentence())]},
    ]


@respx.mock
def test_request_carries_model_system_prompt_messages_tools_and_max_tokens() -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    messages = history()
    asyncio.run(client().generate("You are a coding agent.", messages, [BASH, READ], max_tokens=1234))

    request = route.calls.last.request
    assert request.headers["x-api-key"] == "sk-ant-test-key"
    assert request.headers["anthropic-version"] == "2023-06-01"
    body = sent(route)
    assert body["model"] == "claude-sonnet-4-5"
    assert body["max_tokens"] == 1234
    assert body["stream"] is True
    assert body["system"] == [
        {"type": "text", "text": "You are a coding agent.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [
        {"role": "user", "content": messages[0]["content"][0]["text"]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Running it."},
                {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "npm test"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": messages[2]["content"][0]["text"],
                }
            ],
        },
        {"role": "user", "content": "<system>Context was compacted.</system>"},
        {
            "role": "user",
            "content": [
                messages[4]["content"][0],
                {**messages[4]["content"][1], "cache_control": {"type": "ephemeral"}},
            ],
        },
    ]
    assert body["tools"] == [
        {"name": "Bash", "description": "Run a shell command", "input_schema": {"type": "object"}},
        {
            "name": "Read",
            "description": "Read a file",
            "input_schema": {"type": "object", "required": ["path"]},
            "cache_control": {"type": "ephemeral"},
        },
    ]


@respx.mock
def test_without_system_prompt_tools_or_max_tokens_the_defaults_are_sent() -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    asyncio.run(
        client(env={**ENV, "SYNAPSE_MAX_TOKENS": "2048"}).generate("", [{"role": "user", "content": []}])
    )
    body = sent(route)
    assert "system" not in body and "tools" not in body
    assert body["max_tokens"] == 2048
    assert body["messages"] == [{"role": "user", "content": []}]


@respx.mock
def test_invalid_tool_arguments_in_the_history_are_sent_as_an_empty_input() -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    broken = {
        "role": "assistant",
        "content": [],
        "toolCalls": [{"id": "t", "name": "Bash", "arguments": '{"command":"echo "oops""}'}],
    }
    asyncio.run(client().generate("s", [{"role": "user", "content": [text("hi")]}, broken]))
    assert sent(route)["messages"][1]["content"] == [
        {"type": "tool_use", "id": "t", "name": "Bash", "input": {}, "cache_control": {"type": "ephemeral"}}
    ]


@respx.mock
def test_streamed_text_and_usage_with_cache_read_and_creation() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("why?")]}]))
    assert reply.message == {
        "role": "assistant",
        "content": [text("The build failed because `npm test` exits 1.")],
    }
    assert reply.usage == {"inputOther": 25, "output": 15, "inputCacheRead": 9600, "inputCacheCreation": 1200}


@respx.mock
def test_streamed_tool_calls_assemble_their_arguments_from_the_deltas() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_tool_use.sse"))
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("check")]}], [BASH]))
    assert reply.message == {
        "role": "assistant",
        "content": [text("Let me look at the log.")],
        "toolCalls": [
            {
                "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                "name": "Bash",
                "arguments": '{"command": "tail -n 20 build.log"}',
            },
            {"id": "toolu_01Aq9w3xVNr3qT5kRZ1qYcDE", "name": "Read", "arguments": '{"path": "package.json"}'},
        ],
    }
    assert reply.usage == {"inputOther": 472, "output": 89, "inputCacheRead": 2048, "inputCacheCreation": 0}


@respx.mock
def test_a_non_streaming_answer_gives_the_same_shape() -> None:
    route = respx.post(ANTHROPIC_URL).mock(
        return_value=httpx.Response(200, json=recorded_json("anthropic_message.json"))
    )
    reply = asyncio.run(client(stream=False).generate("s", [{"role": "user", "content": [text("test it")]}]))
    assert "stream" not in sent(route)
    assert reply.message == {
        "role": "assistant",
        "content": [text("I'll run the tests.")],
        "toolCalls": [
            {"id": "toolu_01D7FLrfh4GYq7yT1ULFeyMV", "name": "Bash", "arguments": '{"command": "npm test"}'}
        ],
    }
    assert reply.usage == {"inputOther": 310, "output": 54, "inputCacheRead": 0, "inputCacheCreation": 1500}


@respx.mock
def test_an_error_event_in_the_stream_raises_with_its_message() -> None:
    """An ``event: error`` arrives on a 200 answer: it is a failed stream without a status (the SDK's
    ``APIError`` with no status, the original's ``ChatProviderError``), not an HTTP status error 200."""
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_overloaded.sse"))
    with pytest.raises(ProviderError, match="Overloaded") as raised:
        asyncio.run(client().generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert not isinstance(raised.value, APIStatusError)
    assert "200" not in str(raised.value)
    assert route.call_count == 1


@respx.mock
def test_the_stream_api_yields_text_as_it_arrives_then_the_whole_reply() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_tool_use.sse"))

    async def read() -> tuple[list[str], Any]:
        stream = client(stream=False).stream("s", [{"role": "user", "content": [text("check")]}])
        pieces = [piece async for piece in stream]
        return pieces, stream.reply

    pieces, reply = asyncio.run(read())
    assert pieces == ["Let me look", " at the log."]
    assert [c["name"] for c in reply.message["toolCalls"]] == ["Bash", "Read"]


@respx.mock
def test_a_text_listener_sees_the_deltas_of_generate() -> None:
    respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    seen: list[str] = []
    listening = client().with_text_listener(seen.append)
    reply = asyncio.run(listening.generate("s", [{"role": "user", "content": [text("why?")]}]))
    assert "".join(seen) == reply.message["content"][0]["text"] and len(seen) == 3


@respx.mock
def test_with_model_sends_the_other_model_and_keeps_the_rest() -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    base = client()
    haiku = base.with_model(" claude-haiku-4-5 ")
    assert base.with_model("claude-sonnet-4-5") is base and base.with_model("  ") is base
    assert haiku.model_name == "claude-haiku-4-5" and base.model_name == "claude-sonnet-4-5"
    asyncio.run(haiku.generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert sent(route)["model"] == "claude-haiku-4-5"
    assert route.calls.last.request.headers["x-api-key"] == "sk-ant-test-key"


@respx.mock
def test_the_base_url_comes_from_the_environment() -> None:
    route = respx.post("https://gateway.example.test/anthropic/v1/messages").mock(
        return_value=sse("anthropic_text.sse")
    )
    env = {**ENV, "ANTHROPIC_BASE_URL": "https://gateway.example.test/anthropic/"}
    asyncio.run(client(env=env).generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert route.called


@respx.mock
@pytest.mark.parametrize("stream", [True, False])
def test_a_lone_surrogate_in_a_message_travels_as_its_json_escape(stream: bool) -> None:
    """Text restored from a file name no encoding could hold keeps its lone surrogate; the request must
    still go out (as ASCII JSON), not fail in the UTF-8 encoding of the body."""
    answer = (
        sse("anthropic_text.sse")
        if stream
        else httpx.Response(200, json=recorded_json("anthropic_message.json"))
    )
    route = respx.post(ANTHROPIC_URL).mock(return_value=answer)
    messages = [{"role": "user", "content": [text("see /tmp/bad-\ud800-name")]}]
    asyncio.run(client(stream=stream).generate("You are a coding agent.", messages, []))

    raw = route.calls.last.request.content
    assert b"\\ud800" in raw
    assert "see /tmp/bad-\ud800-name" in json.dumps(sent(route)["messages"], ensure_ascii=False)


def events(*pairs: tuple[str, dict[str, Any]]) -> httpx.Response:
    """A 200 answer streaming the given ``(event, data)`` pairs."""
    body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in pairs)
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


@pytest.mark.parametrize(
    "tool_message",
    [
        {"role": "tool", "content": [text("done")]},
        {"role": "tool", "content": [text("done")], "toolCallId": ""},
        {"role": "tool", "content": [text("done")], "toolCallId": None},
        {"role": "tool", "content": [text("done")], "toolCallId": 7},
    ],
    ids=["missing", "empty", "null", "not-a-string"],
)
@respx.mock
def test_a_tool_message_without_a_tool_call_id_is_refused_before_anything_is_sent(
    tool_message: dict[str, Any],
) -> None:
    route = respx.post(ANTHROPIC_URL).mock(return_value=sse("anthropic_text.sse"))
    messages = [{"role": "user", "content": [text("run it")]}, tool_message]
    with pytest.raises(ProviderError, match="toolCallId") as raised:
        asyncio.run(client().generate("s", messages))
    assert not isinstance(raised.value, APIStatusError)
    assert not route.called


@respx.mock
def test_message_delta_usage_updates_only_the_output_tokens() -> None:
    start_usage = {
        "input_tokens": 40,
        "output_tokens": 1,
        "cache_read_input_tokens": 900,
        "cache_creation_input_tokens": 120,
    }
    respx.post(ANTHROPIC_URL).mock(
        return_value=events(
            ("message_start", {"type": "message_start", "message": {"usage": start_usage}}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
            ),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn"},
                    "usage": {
                        "input_tokens": 0,
                        "output_tokens": 17,
                        "cache_read_input_tokens": 0,
                        "cache_creation_input_tokens": 0,
                    },
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        )
    )
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert reply.usage == {"inputOther": 40, "output": 17, "inputCacheRead": 900, "inputCacheCreation": 120}


@respx.mock
def test_a_tool_use_start_with_input_does_not_prefix_the_streamed_arguments() -> None:
    respx.post(ANTHROPIC_URL).mock(
        return_value=events(
            ("message_start", {"type": "message_start", "message": {"usage": {"input_tokens": 5}}}),
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {
                        "type": "tool_use",
                        "id": "toolu_9",
                        "name": "Read",
                        "input": {"k": "v"},
                    },
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"q":'},
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": "1}"},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        )
    )
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("read")]}], [READ]))
    assert reply.message["toolCalls"] == [{"id": "toolu_9", "name": "Read", "arguments": '{"q":1}'}]
    assert json.loads(reply.message["toolCalls"][0]["arguments"]) == {"q": 1}
