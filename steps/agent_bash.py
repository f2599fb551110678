"""Steps for what the implementation's own Bash tool reports (``features/agent/bash_tool_results.feature``,
``features/agent/bash_tool_timeout.feature``): the model's view comes from the scripted model's requests,
the toolset's own answer from calling it again with the same tool call; a timed-out command's processes
are watched through the pid files it writes and ``/proc`` (the steps of ``steps/agent_abort.py``)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from steps.agent import AgentWorld, _text_of, agent_run
from steps.support import run
from synapse_spec import cells, contract, probes

CALL_ID = "call-1"


@dataclass
class BashCall:
    """The one tool call a scenario scripts, to hand to the toolset again."""

    call: dict[str, Any] = field(default_factory=dict)
    seconds: float | None = None  # how long the timed run took


@pytest.fixture
def bash_call() -> BashCall:
    return BashCall()


def _toolset(world: AgentWorld) -> contract.Toolset:
    assert world.own_toolset is not None, "setting up: the scenario should use the implementation's toolset"
    return world.own_toolset


def _command(call: BashCall) -> str:
    command = json.loads(call.call["arguments"]).get("command")
    assert isinstance(command, str), f"setting up: the call should carry a command: {call.call}"
    return command


def _script(world: AgentWorld, call: BashCall, name: str, arguments: str, reply: str) -> None:
    call.call = {"id": CALL_ID, "name": name, "arguments": arguments}
    world.llm.reply_tool_calls([call.call])
    world.llm.reply_text(reply)


@given("runner 使用实现自己的 Bash 工具集，命令在空的工作目录中运行")
def bash_own_toolset(agent_world: AgentWorld) -> None:
    assert not any(Path(agent_world.cwd).iterdir()), "the working directory should start empty"
    agent_world.own_toolset = agent_world.synapse.bash_toolset(agent_world.cwd)


@given(parsers.re(r'^模型首轮调用 Bash 命令 `(?P<command>[^`]*)`，看到结果后回复 "(?P<reply>[^"]*)"$'))
def bash_command_call(agent_world: AgentWorld, bash_call: BashCall, command: str, reply: str) -> None:
    _script(agent_world, bash_call, "Bash", json.dumps({"command": command}), reply)


@given(
    parsers.re(
        r'^模型首轮以参数 `(?P<arguments>[^`]*)` 调用工具 "(?P<name>[^"]+)"，'
        r'看到结果后回复 "(?P<reply>[^"]*)"$'
    )
)
def bash_raw_call(
    agent_world: AgentWorld, bash_call: BashCall, arguments: str, name: str, reply: str
) -> None:
    _script(agent_world, bash_call, name, arguments, reply)


@given(parsers.re(r'^环境变量 `SYNAPSE_COMMAND_TIMEOUT` 为 "(?P<value>[^"]*)"$'))
def bash_command_timeout(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SYNAPSE_COMMAND_TIMEOUT", value)


@given(parsers.re(r'^模型首轮调用下面的 Bash 命令，看到结果后回复 "(?P<reply>[^"]*)":$'))
def bash_command_block_call(agent_world: AgentWorld, bash_call: BashCall, reply: str, docstring: str) -> None:
    _script(agent_world, bash_call, "Bash", json.dumps({"command": docstring}), reply)


@when("执行 `runner.run(...)` 并记下它用了多久")
def bash_timed_run(agent_world: AgentWorld, bash_call: BashCall) -> None:
    started = time.monotonic()
    agent_run(agent_world)
    bash_call.seconds = time.monotonic() - started


@then(parsers.re(r"^run 应在 (?P<limit>\d+) 秒之内返回，远早于命令的 `sleep (?P<sleep>\d+)` 结束$"))
def bash_returned_in_time(bash_call: BashCall, limit: str, sleep: str) -> None:
    assert int(limit) < int(sleep), "scenario data: the limit should be shorter than the command's sleep"
    seconds = bash_call.seconds
    assert seconds is not None, "setting up: the run should have been timed"
    assert seconds < int(limit), (
        f"the command should be ended at its time limit and the run go on: run() returned after "
        f"{seconds:.1f} s, not within {limit} s (the command sleeps {sleep} s)"
    )


@given("工作目录在命令运行前被删除")
def bash_workdir_removed(agent_world: AgentWorld) -> None:
    Path(agent_world.cwd).rmdir()


def _tool_text(world: AgentWorld, number: int) -> str:
    calls = world.llm.calls
    assert len(calls) >= number, f"the model should be called {number} times, it was called {len(calls)}"
    tool = calls[number - 1].messages[-1]
    assert tool.get("role") == "tool" and tool.get("toolCallId") == CALL_ID, (
        f"the model's call {number} should end with the tool result, got {tool!r}"
    )
    return _text_of(tool)


@then(
    parsers.re(
        r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应为 "(?P<text>.*)"，'
        r"其中 \{stderr\} 是 /bin/bash 运行该命令时的错误输出$"
    )
)
def bash_tool_text_with_stderr(agent_world: AgentWorld, bash_call: BashCall, number: str, text: str) -> None:
    """``\\n`` in the expected text stands for a line break, ``{U+XXXX}`` for that code point."""
    stderr = probes.shell_stderr(_command(bash_call), agent_world.cwd)
    expected = cells.expand(text.replace("\\n", "\n")).replace("{stderr}", stderr)
    actual = _tool_text(agent_world, int(number))
    assert actual == expected, f"the tool message should read {expected!r}, got {actual!r}"


@then(parsers.re(r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应以 "(?P<text>.*)" 结尾$'))
def bash_tool_text_suffix(agent_world: AgentWorld, number: str, text: str) -> None:
    """``\\n`` in the expected text stands for a line break, ``{U+XXXX}`` for that code point."""
    expected = cells.expand(text.replace("\\n", "\n"))
    actual = _tool_text(agent_world, int(number))
    assert actual.endswith(expected), f"the tool message should end with {expected!r}, got {actual!r}"


@then(
    parsers.re(
        r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应先是命令超时前的输出 "(?P<output>.*)"，'
        r'空一行后是以 "(?P<prefix>[^"]+)" 开头并提到 "(?P<first>[^"]+)" 与 "(?P<second>[^"]+)" 的说明$'
    )
)
def bash_tool_text_after_timeout(
    agent_world: AgentWorld, number: str, output: str, prefix: str, first: str, second: str
) -> None:
    """The tool message is the result's output, then its message: what the command printed until it was
    ended, then the error in the implementation's words.  ``\\n`` stands for a line break."""
    printed = output.replace("\\n", "\n") + "\n\n"
    actual = _tool_text(agent_world, int(number))
    assert actual.startswith(printed), (
        f"the tool message should start with what the command printed before its time ran out, "
        f"{printed!r}, got {actual!r}"
    )
    message = actual[len(printed) :]
    assert message.startswith(prefix) and all(word in message[len(prefix) :] for word in (first, second)), (
        f"after the output the tool message should say {prefix!r} and name {first!r} and {second!r}, "
        f"got {message!r}"
    )


_PREFIX = r"开头，其后是(?:解析错误|错误原因)$"


def _assert_prefixed(actual: str, prefix: str) -> None:
    assert actual.startswith(prefix) and actual[len(prefix) :].strip(), (
        f"the tool result should start with {prefix!r} and go on with the reason, got {actual!r}"
    )


@then(parsers.re(r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应以 "(?P<prefix>[^"]+)" ' + _PREFIX))
def bash_tool_text_prefix(agent_world: AgentWorld, number: str, prefix: str) -> None:
    _assert_prefixed(_tool_text(agent_world, int(number)), prefix)


_MENTIONS = r'开头并提到 "(?P<word>[^"]+)"$'


def _assert_prefixed_mentioning(actual: str, prefix: str, word: str) -> None:
    """The problem named, in whatever words: the sentence after the prefix is the implementation's."""
    assert actual.startswith(prefix) and word in actual[len(prefix) :], (
        f"the tool result should start with {prefix!r} and then name {word!r}, got {actual!r}"
    )


@then(parsers.re(r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应以 "(?P<prefix>[^"]+)" ' + _MENTIONS))
def bash_tool_text_mentions(agent_world: AgentWorld, number: str, prefix: str, word: str) -> None:
    _assert_prefixed_mentioning(_tool_text(agent_world, int(number)), prefix, word)


def _direct(world: AgentWorld, call: BashCall) -> contract.ToolResult:
    result: contract.ToolResult = run(_toolset(world).handle(call.call))
    return result


def _direct_text(world: AgentWorld, call: BashCall) -> str:
    """The text a model reads of a result: output and message, the empty ones left out."""
    result = _direct(world, call)
    return "\n\n".join(part for part in (result.output, result.message) if part)


@then(
    parsers.re(
        r"^工具集直接处理同一调用应返回 is_error 为 (?P<error>true|false)，"
        r'(?:failureCategory 为 "(?P<category>[^"]+)"|没有 failureCategory)'
        r"(?:，exitCode 为 (?P<exit_code>\d+))?"
        r'(?:，brief 为 "(?P<brief>[^"]*)")?$'
    )
)
def bash_direct_result(
    agent_world: AgentWorld,
    bash_call: BashCall,
    error: str,
    category: str | None,
    exit_code: str | None,
    brief: str | None,
) -> None:
    result = _direct(agent_world, bash_call)
    assert result.is_error is (error == "true"), f"the result should have is_error {error}: {result!r}"
    extras = result.extras or {}
    actual = extras.get("failureCategory")
    assert actual == category, f"the result's failureCategory should be {category!r}, got {actual!r}"
    if exit_code is not None:
        code = extras.get("exitCode")
        assert isinstance(code, int) and not isinstance(code, bool) and code == int(exit_code), (
            f"the result's extras should carry the exit status as the integer exitCode {exit_code}, "
            f"got {code!r} (extras {dict(extras)!r})"
        )
    if brief is not None:
        assert result.brief == brief, f"the result's brief should be {brief!r}, got {result.brief!r}"


@then(parsers.re(r'^工具集直接处理同一调用的结果文本应为 "(?P<text>.*)"$'))
def bash_direct_text(agent_world: AgentWorld, bash_call: BashCall, text: str) -> None:
    actual = _direct_text(agent_world, bash_call)
    assert actual == text, f"the result should read {text!r}, got {actual!r}"


@then(parsers.re(r'^工具集直接处理同一调用的结果文本应以 "(?P<prefix>[^"]+)" ' + _PREFIX))
def bash_direct_text_prefix(agent_world: AgentWorld, bash_call: BashCall, prefix: str) -> None:
    _assert_prefixed(_direct_text(agent_world, bash_call), prefix)


@then(parsers.re(r'^工具集直接处理同一调用的结果文本应以 "(?P<prefix>[^"]+)" ' + _MENTIONS))
def bash_direct_text_mentions(agent_world: AgentWorld, bash_call: BashCall, prefix: str, word: str) -> None:
    _assert_prefixed_mentioning(_direct_text(agent_world, bash_call), prefix, word)


@then('模型每次调用都应只被提供一个工具 "Bash"，其参数是必填的字符串 `command`，工具与参数都有说明')
def bash_tool_offered(agent_world: AgentWorld) -> None:
    calls = agent_world.llm.calls
    assert calls, "the model should have been called"
    for call in calls:
        tools = list(call.tools or [])
        assert len(tools) == 1 and tools[0].get("name") == "Bash", (
            f"the model should be offered the one tool Bash, got {call.tools!r}"
        )
        tool = tools[0]
        parameters = tool.get("parameters") or {}
        command = (parameters.get("properties") or {}).get("command") or {}
        assert parameters.get("type") == "object" and parameters.get("required") == ["command"], (
            f"Bash's parameters should be an object that requires `command`: {parameters!r}"
        )
        assert command.get("type") == "string", f"`command` should be a string: {command!r}"
        for described in (tool, command):
            text = described.get("description")
            assert isinstance(text, str) and text.strip(), f"a description is missing: {described!r}"


@then('工具集的 `getTool("Bash")` 应给出 Bash 工具，`getTool("Read")` 应为空')
def bash_get_tool(agent_world: AgentWorld) -> None:
    toolset = _toolset(agent_world)
    assert toolset.get_tool("Bash") is not None, "getTool('Bash') should give the Bash tool"
    assert toolset.get_tool("Read") is None, "getTool('Read') should give nothing: the toolset has only Bash"


@then(
    parsers.re(
        r"^Bash 工具无沙盒执行 `(?P<command>[^`]+)` 应得到 "
        r'stdout "(?P<stdout>[^"]*)"、stderr "(?P<stderr>[^"]*)"、退出码 (?P<code>\d+)$'
    )
)
def bash_execute_unsandboxed(
    agent_world: AgentWorld, command: str, stdout: str, stderr: str, code: str
) -> None:
    bash = _toolset(agent_world).get_tool("Bash")
    assert bash is not None, "getTool('Bash') should give the Bash tool"
    result = run(bash.execute_unsandboxed(command, agent_world.cwd))
    actual = (result.stdout, result.stderr, result.exit_code)
    assert actual == (stdout, stderr, int(code)), (
        f"executeUnsandboxed should give stdout {stdout!r}, stderr {stderr!r} and exit code {code}, "
        f"got {actual!r}"
    )
