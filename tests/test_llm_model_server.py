"""The loopback model server: the wire formats it speaks, the call record it keeps, its failures, and
``--synapse-llm=loopback:...``; every test talks to it through a real socket on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.llm import ScriptedLLM, http_llm_client
from synapse_ref.llm.errors import APIStatusError, MissingAPIKeyError
from synapse_spec import model_server
from synapse_spec.loopback import LoopbackImplementation
from synapse_spec.model_server import ModelServer, ScriptedHTTPError
from tests.llm_support import FIXTURES, faker, text

BASH = {"name": "Bash", "description": "Run a shell command", "parameters": {"type": "object"}}
USAGE = {"inputOther": 120, "output": 18, "inputCacheRead": 2048, "inputCacheCreation": 900}
MODES = [("anthropic", True), ("anthropic", False), ("openai", True), ("openai", False)]


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as running:
        yield running


def client(server: ModelServer, model: Any, provider: str, *, stream: bool = True) -> Any:
    base_url = ModelServer.base_url(server.serve(model), provider)
    return http_llm_client(provider, base_url=base_url, model=model.model_name, api_key="k", stream=stream)


def history() -> list[dict[str, Any]]:
    """A varied but repeatable history in the contract's shape, every role and part layout included."""
    fake = faker()
    return [
        {"role": "user", "content": [text(fake.sentence())]},
        {
            "role": "assistant",
            "content": [text(fake.sentence())],
            "toolCalls": [
                {"id": "call-1", "name": "Bash", "arguments": '{"command":"ls -la"}'},
                {"id": "call-2", "name": "Read", "arguments": '{"path":"' + fake.file_path() + '"}'},
            ],
        },
        {"role": "tool", "content": [text(fake.paragraph())], "toolCallId": "call-1"},
        {"role": "tool", "content": [text(fake.paragraph()), text(fake.paragraph())], "toolCallId": "call-2"},
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "call-3", "name": "Bash", "arguments": "{}"}],
        },
        {"role": "tool", "content": [], "toolCallId": "call-3"},
        {"role": "user", "content": [text(fake.sentence()), text(fake.sentence())]},
        {"role": "assistant", "content": [text("")]},
        {"role": "user", "content": [text(fake.text())]},
    ]


@pytest.mark.parametrize(("provider", "stream"), MODES)
def test_a_request_becomes_the_call_the_client_was_given(
    server: ModelServer, provider: str, stream: bool
) -> None:
    scripted = ScriptedLLM("claude-sonnet-4-5").reply_text("Done.", usage=USAGE)
    messages = history()
    reply = asyncio.run(
        client(server, scripted, provider, stream=stream).generate(
            "Be brief.", messages, [BASH], max_tokens=321
        )
    )
    (call,) = scripted.calls
    assert (call.model, call.system_prompt, call.max_tokens) == ("claude-sonnet-4-5", "Be brief.", 321)
    assert call.messages == messages
    assert call.tools == [BASH]
    assert reply.message == {"role": "assistant", "content": [text("Done.")]}
    assert reply.usage == USAGE


@pytest.mark.parametrize(("provider", "stream"), MODES)
def test_scripted_tool_calls_reach_the_client_verbatim(
    server: ModelServer, provider: str, stream: bool
) -> None:
    scripted = ScriptedLLM("m").reply_tool_calls(
        [{"id": "c1", "name": "Bash", "arguments": {"command": "grep -rn 'TODO' src/ | wc -l"}}],
        text="Counting the TODOs.",
    )
    reply = asyncio.run(
        client(server, scripted, provider, stream=stream).generate(
            "s", [{"role": "user", "content": [text("count")]}]
        )
    )
    assert reply.message == {
        "role": "assistant",
        "content": [text("Counting the TODOs.")],
        "toolCalls": [
            {"id": "c1", "name": "Bash", "arguments": '{"command": "grep -rn \'TODO\' src/ | wc -l"}'}
        ],
    }


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_history_holding_the_models_own_tool_call_keeps_its_arguments_text(
    server: ModelServer, provider: str
) -> None:
    scripted = ScriptedLLM("m").reply_tool_calls(
        [{"id": "c1", "name": "Bash", "arguments": {"command": "ls"}}]
    )
    scripted.reply_text("ok")
    llm = client(server, scripted, provider)
    first = asyncio.run(llm.generate("s", [{"role": "user", "content": [text("go")]}]))
    follow_up = [
        {"role": "user", "content": [text("go")]},
        first.message,
        {"role": "tool", "content": [text("a.txt")], "toolCallId": "c1"},
    ]
    asyncio.run(llm.generate("s", follow_up))
    assert scripted.calls[1].messages == follow_up


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_other_models_are_derived_once_with_with_model(server: ModelServer, provider: str) -> None:
    scripted = ScriptedLLM("main-model").reply_text("a").reply_text("b").reply_text("c")
    llm = client(server, scripted, provider)
    for model in ("summary-model", "summary-model", "main-model"):
        asyncio.run(llm.with_model(model).generate("s", [{"role": "user", "content": [text("x")]}]))
    assert [c.model for c in scripted.calls] == ["summary-model", "summary-model", "main-model"]
    assert scripted.with_model_calls == ["summary-model"]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_scripted_failure_is_answered_once_as_a_500_with_its_message(
    server: ModelServer, provider: str
) -> None:
    scripted = ScriptedLLM("m").fail(RuntimeError("summary service down")).reply_text("recovered")
    llm = client(server, scripted, provider)
    with pytest.raises(APIStatusError) as raised:
        asyncio.run(llm.generate("s", [{"role": "user", "content": [text("x")]}]))
    assert raised.value.status_code == 500 and raised.value.message == "summary service down"
    assert len(scripted.calls) == 1 and scripted.pending == 1


def test_a_failure_with_a_status_and_the_raw_error_bodies(server: ModelServer) -> None:
    scripted = (
        ScriptedLLM("m").fail(ScriptedHTTPError("Overloaded", 529)).fail(ScriptExhaustedLike("no reply left"))
    )
    root = server.serve(scripted)
    request = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    first = httpx.post(root + "/v1/messages", json=request, headers={"x-api-key": "k"})
    assert first.status_code == 529 and first.headers["x-should-retry"] == "false"
    assert first.json() == {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    second = httpx.post(root + "/v1/chat/completions", json=request, headers={"authorization": "Bearer k"})
    assert second.status_code == 500
    assert second.json() == {"error": {"message": "no reply left", "type": "api_error", "code": None}}


class ScriptExhaustedLike(AssertionError):
    pass


def test_requests_it_cannot_serve(server: ModelServer) -> None:
    root = server.serve(ScriptedLLM("m"))
    hello = {"model": "m", "messages": []}
    assert httpx.post(root + "/v1/messages", json=hello).status_code == 401
    assert (
        httpx.post(root + "/v1/messages", content=b"{not json", headers={"x-api-key": "k"}).status_code == 400
    )
    assert (
        httpx.post(root + "/v1/messages", json={"model": "m"}, headers={"x-api-key": "k"}).status_code == 400
    )
    assert (
        httpx.post(server.url + "/elsewhere/v1/messages", json=hello, headers={"x-api-key": "k"}).status_code
        == 404
    )
    unauthorised = httpx.post(root + "/v1/chat/completions", json=hello, headers={"authorization": "Bearer"})
    assert unauthorised.json()["error"]["message"] == "missing API key"
    with pytest.raises(MissingAPIKeyError, match="Anthropic: no API key configured"):
        http_llm_client("anthropic", base_url=root, model="m", api_key=" ")


def test_arguments_a_non_streaming_anthropic_answer_cannot_carry_are_refused(server: ModelServer) -> None:
    scripted = ScriptedLLM("m").reply_tool_calls(
        [{"id": "c", "name": "Bash", "arguments": '{"command":"echo "oops""}'}]
    )
    with pytest.raises(APIStatusError, match="not a JSON object"):
        asyncio.run(
            client(server, scripted, "anthropic", stream=False).generate(
                "s", [{"role": "user", "content": [text("x")]}]
            )
        )


def test_the_anthropic_stream_follows_the_documented_event_order(server: ModelServer) -> None:
    scripted = ScriptedLLM("m").reply_tool_calls(
        [{"id": "c", "name": "Bash", "arguments": {"command": "ls"}}],
        text="Listing the files now.",
        usage=USAGE,
    )
    root = server.serve(scripted)
    request = {"model": "m", "max_tokens": 5, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    answer = httpx.post(root + "/v1/messages", json=request, headers={"x-api-key": "k"})
    assert answer.headers["content-type"].startswith("text/event-stream")
    events = [line[len("event: ") :] for line in answer.text.splitlines() if line.startswith("event: ")]
    assert events[:3] == ["message_start", "ping", "content_block_start"]
    assert events[-2:] == ["message_delta", "message_stop"]
    assert events.count("content_block_start") == events.count("content_block_stop") == 2
    assert events.count("content_block_delta") > 2, "text and arguments should arrive in several fragments"


def test_the_openai_stream_ends_with_usage_then_done(server: ModelServer) -> None:
    root = server.serve(ScriptedLLM("m").reply_text("hello there, how are you today?", usage=USAGE))
    request = {
        "model": "m",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "hi"}],
    }
    answer = httpx.post(root + "/v1/chat/completions", json=request, headers={"authorization": "Bearer k"})
    data = [line[len("data: ") :] for line in answer.text.splitlines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    assert json.loads(data[-2])["usage"] == {
        "prompt_tokens": 3068,
        "completion_tokens": 18,
        "total_tokens": 3086,
        "prompt_tokens_details": {"cached_tokens": 2048, "cache_write_tokens": 900},
    }
    chunks = [json.loads(d) for d in data[:-2]]
    assert (
        "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
        == "hello there, how are you today?"
    )


def test_an_abort_closes_the_request_while_the_model_is_still_thinking(server: ModelServer) -> None:
    release = threading.Event()

    class Slow(ScriptedLLM):
        async def generate(self, *args: Any, **kwargs: Any) -> Any:
            await asyncio.to_thread(release.wait, 10)
            return await super().generate(*args, **kwargs)

    class AbortSoon:
        checks = 0

        @property
        def aborted(self) -> bool:
            self.checks += 1
            return self.checks > 3

    llm = client(server, Slow("m").reply_text("late"), "anthropic")
    try:
        with pytest.raises(Exception, match="aborted") as raised:
            asyncio.run(llm.generate("s", [{"role": "user", "content": [text("x")]}], signal=AbortSoon()))
        assert type(raised.value).__name__ == "AbortError"
    finally:
        release.set()


def test_standalone_serves_a_json_script_and_records_the_requests(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    command = [
        sys.executable,
        "-m",
        "synapse_spec.model_server",
        "--script",
        str(FIXTURES / "loopback_script.json"),
    ]
    process = subprocess.Popen(
        [*command, "--calls", str(calls), "--timeout", "60"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        llm = http_llm_client("anthropic", base_url=base_url, model="claude-sonnet-4-5", api_key="k")
        first = asyncio.run(llm.generate("sys", [{"role": "user", "content": [text("list")]}]))
        assert first.message["toolCalls"] == [
            {"id": "call-1", "name": "Bash", "arguments": '{"command": "ls"}'}
        ]
        assert first.usage == {
            "inputOther": 120,
            "output": 18,
            "inputCacheRead": 0,
            "inputCacheCreation": 900,
        }
        second = asyncio.run(llm.generate("sys", [{"role": "user", "content": [text("and?")]}]))
        assert second.message["content"] == [text("Two files: README.md and setup.py.")]
        with pytest.raises(APIStatusError, match="529: Overloaded"):
            asyncio.run(llm.generate("sys", [{"role": "user", "content": [text("again")]}]))
    finally:
        process.terminate()
        process.wait(timeout=10)
    recorded = [json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines()]
    assert [r["messages"][0]["content"][0]["text"] for r in recorded] == ["list", "and?", "again"]
    assert recorded[0]["model"] == "claude-sonnet-4-5" and recorded[0]["systemPrompt"] == "sys"
    assert recorded[0]["maxTokens"] == 4096


def test_standalone_rejects_a_broken_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "broken.json"
    script.write_text('{"replies": [{"nothing": 1}]}', encoding="utf-8")
    assert model_server.main(["--script", str(script)]) == 2
    assert "needs text, toolCalls or error" in capsys.readouterr().err


# -- --synapse-llm=loopback:... -----------------------------------------------------------------------------


def test_components_get_the_implementations_http_client(tmp_path: Path) -> None:
    closers: list[Any] = []
    proxy = LoopbackImplementation(ReferenceImplementation(), "openai", closers.append)
    try:
        llm = proxy.scripted_llm("main-model").reply_text("the summary")
        storage = proxy.offload_storage(tmp_path)
        compactor = proxy.context_compactor(storage, llm, preserve_count=1, model="summary-model")
        long_history = [{"role": "user", "content": [text("x" * 50)]} for _ in range(4)]
        result = asyncio.run(compactor.compact(long_history))
        assert result.success and llm.pending == 0
        (call,) = llm.calls
        assert call.model == "summary-model" and llm.with_model_calls == ["summary-model"]
        assert proxy.name == "synapse-ref" and "llm-http" in proxy.capabilities
    finally:
        for close in closers:
            close()
    assert len(closers) == 1


SPEC_CONFTEST = """
from pytest_bdd import given, then

pytest_plugins = ["synapse_spec.plugin"]


@given("a scripted model", target_fixture="llm")
def given_llm(synapse):
    return synapse.scripted_llm("m")


@then("it has no calls yet")
def then_no_calls(llm):
    assert list(llm.calls) == []
"""


@pytest.fixture
def spec(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(SPEC_CONFTEST)
    features = pytester.mkdir("features")
    (features / "models.feature").write_text(
        "@reader\nFeature: Models\n  @MOD-001\n  Scenario: a model\n"
        "    Given a scripted model\n    Then it has no calls yet\n",
        encoding="utf-8",
    )
    (features / "test_models.py").write_text('from pytest_bdd import scenarios\n\nscenarios(".")\n')
    pytester.makepyfile(
        plain_impl=textwrap.dedent(
            """
            from synapse_ref.adapter import ReferenceImplementation

            class Plain(ReferenceImplementation):
                capabilities = ReferenceImplementation.capabilities - {"llm-http"}

            implementation = Plain
            """
        )
    )
    return pytester


def outcome(spec: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    result = spec.runpytest_subprocess("features", "-p", "no:randomly", "-p", "no:cacheprovider", *args)
    report = json.loads((spec.path / "reports" / "synapse-spec.json").read_text("utf-8"))
    return result, {s["id"]: (s["status"], s["message"]) for s in report["scenarios"]}


@pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")
def test_the_option_runs_scenarios_over_loopback_or_says_why_not(spec: pytest.Pytester) -> None:
    result, scenarios = outcome(spec, "--synapse-llm=loopback:anthropic")
    assert result.ret == pytest.ExitCode.OK and scenarios["MOD-001"][0] == "passed"

    result, scenarios = outcome(spec, "--synapse-llm=loopback:openai", "--synapse-impl=plain_impl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # no scenario applies: the run checked nothing
    result.stdout.fnmatch_lines(["*no scenario applies: nothing was checked*"])
    status, message = scenarios["MOD-001"]
    assert status == "not-applicable" and "llm-http" in message and "loopback:openai" in message

    wrong = spec.runpytest_subprocess("features", "-p", "no:randomly", "--synapse-llm=loopback:gemini")
    assert wrong.ret == pytest.ExitCode.USAGE_ERROR
    wrong.stderr.fnmatch_lines(
        ["*'loopback:gemini' is not one of in-process, loopback:anthropic, loopback:openai*"]
    )
