"""The OpenAI-compatible chat-completions client: what it sends, how it reads JSON and streamed answers."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import respx

from synapse_ref.llm import make_llm_client
from synapse_ref.llm.errors import APIStatusError, ProviderError
from synapse_ref.llm.http_client import HttpLLMClient
from tests.llm_support import OPENAI_URL, faker, recorded_json, sent, sse, text

ENV = {"OPENAI_API_KEY": "sk-proj-test-key"}
BASH = {"name": "Bash", "description": "Run a shell command", "parameters": {"type": "object"}}


def client(*, stream: bool = True, env: dict[str, str] | None = None) -> HttpLLMClient:
    made = make_llm_client("openai", "gpt-4.1-mini", env=env or ENV, stream=stream)
    assert isinstance(made, HttpLLMClient)
    return made


@respx.mock
def test_request_carries_model_system_prompt_messages_tools_and_max_tokens() -> None:
    route = respx.post(OPENAI_URL).mock(return_value=sse("openai_text.sse"))
    fake = faker()
    question, output, follow_up = fake.sentence(), fake.paragraph(), [fake.sentence(), fake.sentence()]
    messages = [
        {"role": "user", "content": [text(question)]},
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "call_1", "name": "Bash", "arguments": '{"command":"ls"}'}],
        },
        {"role": "tool", "content": [text(output)], "toolCallId": "call_1"},
        {"role": "user", "content": [text(t) for t in follow_up]},
    ]
    asyncio.run(client().generate("You are a coding agent.", messages, [BASH], max_tokens=777))

    assert route.calls.last.request.headers["authorization"] == "Bearer sk-proj-test-key"
    body = sent(route)
    assert body["model"] == "gpt-4.1-mini"
    assert body["max_tokens"] == 777
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["messages"] == [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "Bash", "arguments": '{"command":"ls"}'},
                }
            ],
        },
        {"role": "tool", "content": output, "tool_call_id": "call_1"},
        {"role": "user", "content": [text(t) for t in follow_up]},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "Bash",
                "description": "Run a shell command",
                "parameters": {"type": "object"},
            },
        }
    ]


@respx.mock
def test_without_system_prompt_or_max_tokens_the_defaults_are_sent() -> None:
    route = respx.post(OPENAI_URL).mock(return_value=sse("openai_text.sse"))
    env = {**ENV, "SYNAPSE_OPENAI_MAX_TOKENS": "8192"}
    asyncio.run(client(env=env).generate("", [{"role": "user", "content": [text("hi")]}]))
    body = sent(route)
    assert body["messages"] == [{"role": "user", "content": "hi"}]
    assert body["max_tokens"] == 8192 and "tools" not in body


@respx.mock
def test_streamed_text_and_usage_split_into_the_four_kinds() -> None:
    respx.post(OPENAI_URL).mock(return_value=sse("openai_text.sse"))
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("why?")]}]))
    assert reply.message == {
        "role": "assistant",
        "content": [text("The build failed because `npm test` exits 1.")],
    }
    assert reply.usage == {"inputOther": 1225, "output": 15, "inputCacheRead": 9600, "inputCacheCreation": 0}


@respx.mock
def test_streamed_parallel_tool_calls_assemble_their_arguments_by_index() -> None:
    respx.post(OPENAI_URL).mock(return_value=sse("openai_tool_calls.sse"))
    reply = asyncio.run(client().generate("s", [{"role": "user", "content": [text("check")]}], [BASH]))
    assert reply.message == {
        "role": "assistant",
        "content": [text("Let me look at the log.")],
        "toolCalls": [
            {
                "id": "call_DdmNtWCnW1dG4oYkLQ2zA8Xk",
                "name": "Bash",
                "arguments": '{"command": "tail -n 20 build.log"}',
            },
            {"id": "call_5Zk0r8uWJmQxYvN3bTtE6sHa", "name": "Read", "arguments": '{"path": "package.json"}'},
        ],
    }
    assert reply.usage == {"inputOther": 472, "output": 89, "inputCacheRead": 2048, "inputCacheCreation": 0}


@respx.mock
def test_a_non_streaming_answer_gives_the_same_shape() -> None:
    route = respx.post(OPENAI_URL).mock(
        return_value=httpx.Response(200, json=recorded_json("openai_completion.json"))
    )
    reply = asyncio.run(client(stream=False).generate("s", [{"role": "user", "content": [text("test it")]}]))
    assert "stream" not in sent(route) and "stream_options" not in sent(route)
    assert reply.message == {
        "role": "assistant",
        "content": [text("I'll run the tests.")],
        "toolCalls": [{"id": "call_62136354", "name": "Bash", "arguments": '{"command":"npm test"}'}],
    }
    assert reply.usage == {"inputOther": 786, "output": 54, "inputCacheRead": 1024, "inputCacheCreation": 0}


@pytest.mark.parametrize(
    "usage",
    [
        {
            "prompt_tokens": 3000,
            "completion_tokens": 7,
            "prompt_tokens_details": {"cached_tokens": 1000, "cache_write_tokens": 1500},
        },
        {
            "prompt_tokens": 3000,
            "completion_tokens": 7,
            "cache_read_input_tokens": 1000,
            "cache_creation_input_tokens": 1500,
        },
    ],
    ids=["details", "gateway"],
)
@respx.mock
def test_cache_writes_reported_by_compatible_gateways_are_counted(usage: dict[str, Any]) -> None:
    answer = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}], "usage": usage}
    respx.post(OPENAI_URL).mock(return_value=httpx.Response(200, json=answer))
    reply = asyncio.run(client(stream=False).generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert reply.usage == {"inputOther": 500, "output": 7, "inputCacheRead": 1000, "inputCacheCreation": 1500}


@respx.mock
def test_an_error_chunk_in_the_stream_raises_with_its_message() -> None:
    body = (
        b'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n'
        b'data: {"error":{"message":"The server had an error while processing your request.",'
        b'"type":"server_error"}}\n\n'
    )
    respx.post(OPENAI_URL).mock(
        return_value=httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})
    )
    with pytest.raises(ProviderError, match="server had an error") as raised:
        asyncio.run(client().generate("s", [{"role": "user", "content": [text("hi")]}]))
    # As in the SDK, an error inside a 200 stream has no status: it is not an HTTP status error 200.
    assert not isinstance(raised.value, APIStatusError)
    assert "200" not in str(raised.value)


@respx.mock
def test_the_base_url_comes_from_the_environment() -> None:
    route = respx.post("http://localhost:11434/v1/chat/completions").mock(return_value=sse("openai_text.sse"))
    env = {**ENV, "OPENAI_BASE_URL": "http://localhost:11434/v1"}
    asyncio.run(client(env=env).generate("s", [{"role": "user", "content": [text("hi")]}]))
    assert route.called
