"""Steps for the agent layer: sandbox permissions, runner guards, stop hooks, forced compaction and the
tool-protocol sanitizer (``features/agent``)."""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast
from unittest.mock import AsyncMock, NonCallableMagicMock

import pytest
from pytest_bdd import given, parsers, then, when
from pytest_mock import MockerFixture

from steps.support import (
    CharTokenCounter,
    PartsModel,
    RecordingSleep,
    message_tokens,
    reply_parts_of,
    run,
)
from synapse_spec import cells, contract, fuzz, probes

MODEL = "fake-model"
HOOK_NOTE = "hook-note: 本次会话可以沉淀为技能"
FAILING_COMMAND = "ls --bogus"
BASH_SCHEMA = {
    "name": "Bash",
    "description": "Run a shell command",
    "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
}


# --------------------------------------------------------------------------------------------------------
# Values the doubles hand to the implementation (any object with these attributes must be accepted)
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ToolResult:
    """Satisfies ``contract.ToolResult``."""

    is_error: bool = False
    output: str = ""
    message: str = ""
    brief: str = ""
    extras: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class _CommandResult:
    """Satisfies ``contract.CommandResult``."""

    stdout: str
    stderr: str = ""
    exit_code: int = 0


@dataclass
class _Signal:
    """Satisfies ``contract.AbortSignal``; a scenario sets ``aborted`` while the runner works (Ctrl-C)."""

    aborted: bool


def _ok(output: str = "ok") -> _ToolResult:
    return _ToolResult(output=output)


HELP_OUTPUT = (
    "Usage: rg [OPTIONS] PATTERN [PATH ...]\n\nOptions:\n  -i, --ignore-case  Search case-insensitively\n"
)
"""What a successful ``rg --help`` prints: a usage text, which is no failure when the call succeeded."""


def _countable_failure() -> _ToolResult:
    return _ToolResult(
        is_error=True,
        message="Usage: ls [path]",
        brief="Usage: ls [path]",
        extras={"failureCategory": "invalid_usage"},
    )


def _execution_error() -> _ToolResult:
    """A failed command the model can correct itself (a wrong path): not a misuse of the tools."""
    return _ToolResult(
        is_error=True,
        message="cat: build.log: No such file or directory",
        brief="Command failed",
        extras={"failureCategory": "execution_error"},
    )


def _text(role: str, text: str) -> contract.Message:
    return {"role": role, "content": [{"type": "text", "text": text}]}


def _log_round(request: str, result: str) -> list[contract.Message]:
    """A user request, the assistant's ``cat build.log`` call and its tool result."""
    return [
        _text("user", request),
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "log-call", "name": "Bash", "arguments": '{"command":"cat build.log"}'}],
        },
        {"role": "tool", "content": [{"type": "text", "text": result}], "toolCallId": "log-call"},
    ]


def _text_of(message: Mapping[str, Any]) -> str:
    return "".join(
        str(part.get("text", ""))
        for part in message.get("content", [])
        if isinstance(part, dict) and part.get("type") == "text"
    )


def _is_object_json(arguments: object) -> bool:
    if not isinstance(arguments, str) or not arguments.strip():
        return False
    try:
        return isinstance(json.loads(arguments), dict)
    except ValueError:
        return False


# --------------------------------------------------------------------------------------------------------
# The scenario's world
# --------------------------------------------------------------------------------------------------------


@dataclass
class AgentWorld:
    """Everything one agent scenario builds, inspects and remembers."""

    synapse: contract.Implementation
    tmp: Path
    mocker: MockerFixture
    llm: contract.ScriptedLLM
    toolset: NonCallableMagicMock
    bash: NonCallableMagicMock
    cwd: str
    sessions_dir: Path
    bash_log: list[str] = field(default_factory=list)
    unsandboxed_output: str = "unsandboxed-output"
    unsandboxed_stderr: str = ""
    unsandboxed_exit_code: int = 0
    retry_output: str = "retry-ok"
    retry_message: str = ""
    pass_cwd: bool = True
    max_iterations: int | None = None
    max_failures: int | None = None
    loader_calls: int = 0
    abort_on_load: bool = False
    tool_results: list[Callable[[Mapping[str, Any]], _ToolResult]] = field(default_factory=list)
    default_result: Callable[[], _ToolResult] = _ok
    block_message: str = "deny file-read"
    block_resource: str = "~/.ssh/id_rsa"
    command: str = "cat ~/.ssh/id_rsa"
    session_id: str | None = None
    seed_history: list[contract.Message] = field(default_factory=list)
    session_file_before: bytes | None = None
    usage_before: dict[str, Any] | None = None
    reply_usage: dict[str, int] | None = None
    offload_file: Path | None = None
    offload_content: str = ""
    expected_limit: int = 0
    scripted_turns: int = 0
    use_char_counter: bool = False
    hook_calls: list[Any] = field(default_factory=list)
    stop_hooks: contract.StopHookExecutor | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    tagged_events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    signal: _Signal | None = None
    own_toolset: contract.Toolset | None = None
    watched_signal: contract.AbortSignal | None = None
    next_result: Any = None
    next_message: str = ""
    next_first_call: int = 0
    user_message: str = "请继续"
    runner_: contract.AgentRunner | None = None
    step_result: contract.StepResult | None = None
    result: Any = None
    error: BaseException | None = None
    sanitize_result: contract.SanitizeResult | None = None
    removed: Callable[[Mapping[str, Any]], bool] | None = None
    compact_result: contract.CompactResult | None = None
    char_counter: CharTokenCounter = field(default_factory=CharTokenCounter)
    expected_rounds: list[dict[str, int]] = field(default_factory=list)
    sleep: RecordingSleep = field(default_factory=RecordingSleep)
    run_texts: list[str] = field(default_factory=list)

    # -- building ------------------------------------------------------------------------------------------
    def runner(self) -> contract.AgentRunner:
        if self.runner_ is None:
            session = self.resumed_session() if self.session_id is not None else None
            self.runner_ = self.synapse.agent_runner(
                self.llm,
                self.own_toolset if self.own_toolset is not None else self.toolset,
                session=session,
                stop_hooks=self.stop_hooks,
                cwd=self.cwd if self.pass_cwd else None,
                max_iterations=self.max_iterations,
                max_consecutive_tool_failures=self.max_failures,
                token_counter=self.char_counter if self.use_char_counter else None,
                sleep=self.sleep,
            )
            for kind in ("offload", "compact"):
                self.runner_.on(kind, self._recorder(kind))
        return self.runner_

    def _recorder(self, kind: str) -> Callable[[dict[str, Any]], None]:
        def record(payload: dict[str, Any]) -> None:
            self.tagged_events.append((kind, payload))

        return record

    def new_session(self, messages: list[contract.Message]) -> contract.Session:
        session = self.synapse.create_session(self.sessions_dir, model=MODEL, pricing={})
        if messages:
            session.append_message(copy.deepcopy(messages))
        self.session_id = session.id
        self.seed_history = copy.deepcopy(messages)
        return session

    def resumed_session(self) -> contract.Session:
        assert self.session_id is not None, "the scenario has no session to resume"
        session = self.synapse.find_session(self.session_id, self.sessions_dir, pricing={})
        assert session is not None, f"Session.find({self.session_id!r}) found no session the scenario created"
        return session

    def script_tool_rounds(self, rounds: int, command: str) -> None:
        for _ in range(rounds):
            self.llm.reply_tool_calls([{"name": "Bash", "arguments": {"command": command}}])
        self.llm.reply_text("这一轮回复不应被请求")
        self.scripted_turns = rounds + 1

    def script_blocked_call(self, command: str) -> None:
        self.command = command
        self.llm.reply_tool_calls([{"id": "call-1", "name": "Bash", "arguments": {"command": command}}])
        self.llm.reply_text("这一轮回复不应被请求")
        self.scripted_turns = 2
        self.tool_results.append(
            lambda call: _ToolResult(
                output="",
                message=self.block_message,
                brief="Sandbox blocked",
                extras={"type": "sandbox_blocked", "resource": self.block_resource},
            )
        )

    # -- acting --------------------------------------------------------------------------------------------
    def attempt(self, action: Callable[[], Any]) -> None:
        self.result, self.error = None, None
        try:
            self.result = action()
        except Exception as error:
            self.error = error

    def succeeded(self) -> Any:
        if self.error is not None:
            raise AssertionError(
                f"the call was expected to succeed but raised {self.error!r}"
            ) from self.error
        return self.result

    def persisted_history(self) -> list[contract.Message]:
        return self.resumed_session().load_history()


@pytest.fixture
def agent_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Records of the ``synapse`` loggers from the start of the scenario."""
    caplog.set_level(logging.DEBUG, logger="synapse")
    return caplog


@pytest.fixture
def agent_world(
    synapse: contract.Implementation,
    tmp_path: Path,
    mocker: MockerFixture,
    monkeypatch: pytest.MonkeyPatch,
    agent_logs: pytest.LogCaptureFixture,
) -> AgentWorld:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SYNAPSE_HOME", str(home / ".synapse"))
    for name in (
        "SYNAPSE_MAX_TOOL_ITERATIONS",
        "SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES",
        "SYNAPSE_SESSIONS_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    bash = mocker.NonCallableMagicMock(name="BashTool")
    toolset = mocker.NonCallableMagicMock(name="Toolset")
    world = AgentWorld(
        synapse=synapse,
        tmp=tmp_path,
        mocker=mocker,
        llm=synapse.scripted_llm(MODEL),
        toolset=toolset,
        bash=bash,
        cwd=str(workdir),
        sessions_dir=tmp_path / "sessions",
    )

    async def call(args: Mapping[str, Any]) -> _ToolResult:
        world.bash_log.append("call")
        return _ToolResult(output=world.retry_output, message=world.retry_message)

    async def execute_unsandboxed(command: str, cwd: str) -> _CommandResult:
        world.bash_log.append("execute_unsandboxed")
        return _CommandResult(world.unsandboxed_output, world.unsandboxed_stderr, world.unsandboxed_exit_code)

    async def allow_session(path: str, cwd: str) -> None:
        world.bash_log.append("allow_session")

    async def allow_permanent(path: str, cwd: str) -> None:
        world.bash_log.append("allow_permanent")

    bash.call = mocker.AsyncMock(side_effect=call)
    bash.execute_unsandboxed = mocker.AsyncMock(side_effect=execute_unsandboxed)
    bash.allow_session = mocker.AsyncMock(side_effect=allow_session)
    bash.allow_permanent = mocker.AsyncMock(side_effect=allow_permanent)

    async def handle(tool_call: Mapping[str, Any]) -> _ToolResult:
        if world.tool_results:
            return world.tool_results.pop(0)(tool_call)
        return world.default_result()

    toolset.tools = [BASH_SCHEMA]
    toolset.handle = mocker.AsyncMock(side_effect=handle)
    toolset.get_tool = mocker.Mock(side_effect=lambda name: bash if name == "Bash" else None)

    return world


def _bash_mock(world: AgentWorld, name: str) -> AsyncMock:
    attribute = {
        "allowSession": "allow_session",
        "allowPermanent": "allow_permanent",
        "executeUnsandboxed": "execute_unsandboxed",
        "bashTool.executeUnsandboxed": "execute_unsandboxed",
        "bashTool.call": "call",
    }[name]
    mock = getattr(world.bash, attribute)
    assert isinstance(mock, AsyncMock)
    return mock


# --------------------------------------------------------------------------------------------------------
# 沙箱授权交互闭环
# --------------------------------------------------------------------------------------------------------


@given("Agent 首轮工具调用返回 `extras.type=sandbox_blocked`")
def agent_first_call_blocked(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    row = dict(zip(datatable[0], datatable[1], strict=True))
    assert row["tool"] == "Bash", "the spec's blocked call is a Bash command"
    agent_world.block_message = row["message"]
    agent_world.script_blocked_call(row["command"])


@given(parsers.parse("block 资源为 `{resource}`"))
def agent_block_resource(agent_world: AgentWorld, resource: str) -> None:
    agent_world.block_resource = resource


@when(parsers.parse('调用 `runner.step("{message}")`'))
def agent_call_step(agent_world: AgentWorld, message: str) -> None:
    agent_world.attempt(lambda: run(agent_world.runner().step(message)))
    agent_world.step_result = agent_world.succeeded()


def _step_result(world: AgentWorld) -> contract.StepResult:
    assert world.step_result is not None, "runner.step(...) returned None"
    return world.step_result


def _permission(world: AgentWorld) -> contract.SandboxPermissionRequest:
    permission = _step_result(world).permission
    assert permission is not None, "step() returned no permission request for a sandbox_blocked tool result"
    return permission


@then(parsers.parse("返回状态应为 `{status}`"))
def agent_step_status(agent_world: AgentWorld, status: str) -> None:
    actual = _step_result(agent_world).status
    assert actual == status, f"step() status should be {status!r}, got {actual!r}"


@then(parsers.parse("`permission.type` 应为 `{kind}`"))
def agent_permission_type(agent_world: AgentWorld, kind: str) -> None:
    assert _permission(agent_world).type == kind, f"permission.type should be {kind!r}"


@then(parsers.parse("`permission.options` 应为 `{options}`"))
def agent_permission_options(agent_world: AgentWorld, options: str) -> None:
    actual = list(_permission(agent_world).options)
    assert actual == options.split("|"), (
        f"permission.options should be {options.split('|')} in order, got {actual}"
    )


@then("permission 的资源、原因与命令应为:")
def agent_permission_fields(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    expected = dict(zip(datatable[0], datatable[1], strict=True))
    permission = _permission(agent_world)
    actual = {"resource": permission.resource, "reason": permission.reason, "command": permission.command}
    assert actual == expected, (
        f"the permission request should name the blocked resource, reason and command: {actual}"
    )


@then("runner 应停在权限请求处：模型只被调用 1 次，工具只执行 1 次")
def agent_stopped_at_permission(agent_world: AgentWorld) -> None:
    calls = len(agent_world.llm.calls)
    assert calls == 1, (
        f"the runner should stop after the blocked round, but the model was called {calls} times"
    )
    handled = agent_world.toolset.handle.await_count
    assert handled == 1, f"exactly the blocked tool call should run, the toolset ran {handled}"
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is not None, "get_pending_sandbox_permission() should return the request step() reported"
    assert pending.resource == _permission(agent_world).resource, (
        "the pending request should be the one reported"
    )


@given(parsers.re(r"^已存在 pending sandbox permission(?:，资源为 `(?P<resource>[^`]+)`)?$"))
def agent_pending_permission(
    agent_world: AgentWorld, resource: str | None, datatable: list[list[str]]
) -> None:
    row = dict(zip(datatable[0], datatable[1], strict=True))
    if resource is None:
        resource = row["resource"]
    agent_world.block_resource = resource
    agent_world.script_blocked_call(row["command"])
    result = run(agent_world.runner().step("读取密钥"))
    assert result.status == "requires_permission", (
        f"setting up: step() should ask for permission, got {result.status}"
    )
    assert agent_world.runner().get_pending_sandbox_permission() is not None, "setting up: no pending request"


@given(parsers.parse('无沙盒执行将输出 "{output}"'))
def agent_unsandboxed_output(agent_world: AgentWorld, output: str) -> None:
    agent_world.unsandboxed_output = output


@given(parsers.parse('重试命令将输出 "{output}"'))
def agent_retry_output(agent_world: AgentWorld, output: str) -> None:
    agent_world.retry_output = output


@when(parsers.parse("调用 `resolveSandboxPermission('{option}')`"))
def agent_resolve_permission(agent_world: AgentWorld, option: str) -> None:
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.resolve_sandbox_permission(option)))


def _resolved_text(world: AgentWorld) -> str:
    result = world.succeeded()
    assert isinstance(result, str), f"resolveSandboxPermission should return the text to show, got {result!r}"
    return result


@then("应调用 `bashTool.executeUnsandboxed(command, cwd)`")
def agent_executed_unsandboxed(agent_world: AgentWorld) -> None:
    _resolved_text(agent_world)
    mock = _bash_mock(agent_world, "executeUnsandboxed")
    assert _awaited_with(mock, agent_world.command, agent_world.cwd), (
        f"executeUnsandboxed should run once with the blocked command and the runner's cwd: "
        f"{mock.await_args_list}"
    )


@then("返回输出应包含无沙盒执行结果")
def agent_output_has_unsandboxed(agent_world: AgentWorld) -> None:
    text = _resolved_text(agent_world)
    assert agent_world.unsandboxed_output in text, (
        f"the answer should show the unsandboxed output, got {text!r}"
    )


def _awaited_with(mock: AsyncMock, *args: object) -> bool:
    return mock.await_count == 1 and mock.await_args is not None and tuple(mock.await_args.args) == args


@then(parsers.re(r"^应调用 `(?P<method>allowSession|allowPermanent)\('(?P<path>[^']+)', cwd\)`$"))
def agent_whitelisted(agent_world: AgentWorld, method: str, path: str) -> None:
    _resolved_text(agent_world)
    mock = _bash_mock(agent_world, method)
    assert mock.await_count == 1, f"{method} should be called once, was called {mock.await_count} times"
    assert mock.await_args is not None
    actual_path, actual_cwd = tuple(mock.await_args.args)
    assert actual_cwd == agent_world.cwd, (
        f"{method} should get the runner's cwd {agent_world.cwd!r}, got {actual_cwd!r}"
    )
    if path == "<resource-dir>":
        agent_world.result = (agent_world.result, actual_path)
    else:
        assert actual_path == path, f"{method} should whitelist {path!r}, got {actual_path!r}"


@then(parsers.parse("`<resource-dir>` 应为 `{directory}`"))
def agent_resource_dir(agent_world: AgentWorld, directory: str) -> None:
    assert isinstance(agent_world.result, tuple), (
        "the previous step should have captured the whitelisted path"
    )
    text, actual = agent_world.result
    agent_world.result = text
    assert actual == directory, (
        f"the whitelisted path should be the resource's directory {directory!r}, got {actual!r}"
    )


@then("随后调用 `bashTool.call({ command })` 重试")
def agent_retried(agent_world: AgentWorld) -> None:
    mock = _bash_mock(agent_world, "bashTool.call")
    assert mock.await_count == 1, f"the command should be retried once through call(), was {mock.await_count}"
    assert mock.await_args is not None
    assert tuple(mock.await_args.args) == ({"command": agent_world.command},), (
        f"call() should get {{'command': {agent_world.command!r}}}, got {mock.await_args}"
    )
    log = agent_world.bash_log
    assert log.index("call") > max(log.index(n) for n in ("allow_session", "allow_permanent") if n in log), (
        f"the retry must come after the whitelist change, order was {log}"
    )


@then("返回输出应包含重试结果")
def agent_output_has_retry(agent_world: AgentWorld) -> None:
    text = agent_world.result if isinstance(agent_world.result, str) else _resolved_text(agent_world)
    assert agent_world.retry_output in text, (
        f"the answer should show the retried command's output, got {text!r}"
    )


@then(parsers.re(r"^不应调用 (?P<names>`[^`]+`(?:、`[^`]+`)*)$"))
def agent_not_called(agent_world: AgentWorld, names: str) -> None:
    for name in (part.strip("`") for part in names.split("、")):
        mock = _bash_mock(agent_world, name)
        assert mock.await_count == 0, f"{name} should not be called, was called with {mock.await_args_list}"


@then("返回应包含 `User denied access`")
def agent_answer_contains(agent_world: AgentWorld) -> None:
    text = "User denied access"
    answer = _resolved_text(agent_world)
    assert text in answer, f"the answer should contain {text!r}, got {answer!r}"


@then(parsers.parse("拒绝信息应指明资源 `{resource}`"))
def agent_denial_names_resource(agent_world: AgentWorld, resource: str) -> None:
    answer = _resolved_text(agent_world)
    assert resource in answer, f"the denial should name the resource {resource!r}, got {answer!r}"


@then("之后不应再有 pending 权限请求")
def agent_no_pending_after(agent_world: AgentWorld) -> None:
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is None, f"an answered request must not stay pending, got {pending!r}"


@given("runner 尚未处理过任何请求")
def agent_fresh_runner(agent_world: AgentWorld) -> None:
    agent_world.runner()
    assert not agent_world.llm.calls, "setting up: a fresh runner should not have called the model"


@given("上一个权限请求已被回答")
def agent_previous_answered(agent_world: AgentWorld) -> None:
    agent_world.script_blocked_call("cat ~/.ssh/id_rsa")
    runner = agent_world.runner()
    result = run(runner.step("读取密钥"))
    assert result.status == "requires_permission", "setting up: step() should ask for permission"
    run(runner.resolve_sandbox_permission("deny"))


@given("当前没有待处理的 permission 请求")
def agent_no_pending(agent_world: AgentWorld) -> None:
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is None, f"get_pending_sandbox_permission() should be None here, got {pending!r}"


@then(parsers.parse("应抛出 `{message}`"))
def agent_raised(agent_world: AgentWorld, message: str) -> None:
    error = agent_world.error
    assert error is not None, f"the call should raise {message!r}, but returned {agent_world.result!r}"
    assert str(error) == message, f"the error message should be exactly {message!r}, got {str(error)!r}"


# --------------------------------------------------------------------------------------------------------
# AgentRunner 保护机制
# --------------------------------------------------------------------------------------------------------


@given("工具连续失败次数达到 `maxConsecutiveToolFailures`")
def agent_tools_keep_failing(agent_world: AgentWorld) -> None:
    agent_world.default_result = _countable_failure
    agent_world.script_tool_rounds(6, FAILING_COMMAND)


@given(parsers.re(r'^`(?P<name>SYNAPSE_[A-Z_]+)` 为 "(?P<value>[^"]*)"，(?:阈值|上限)应为 (?P<limit>\d+)$'))
def agent_limit_env(
    agent_world: AgentWorld, monkeypatch: pytest.MonkeyPatch, name: str, value: str, limit: str
) -> None:
    if value:
        monkeypatch.setenv(name, cells.expand(value))
    else:
        monkeypatch.delenv(name, raising=False)
    agent_world.expected_limit = int(limit)


@when("执行 `runner.run(...)`")
def agent_run(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.run("请执行命令")))


def _run_text(world: AgentWorld) -> str:
    result = world.succeeded()
    assert isinstance(result, str), f"run() should return the final text, got {result!r}"
    return result


@then("应返回 `Consecutive tool execution failures; stopping.`")
def agent_run_returned(agent_world: AgentWorld) -> None:
    text = "Consecutive tool execution failures; stopping."
    actual = _run_text(agent_world)
    assert actual == text, f"run() should return exactly {text!r}, got {actual!r}"


@then("不应继续进入下一轮工具调用")
def agent_no_next_round(agent_world: AgentWorld) -> None:
    limit = agent_world.expected_limit
    calls = len(agent_world.llm.calls)
    assert calls == limit, (
        f"after {limit} failing rounds the model must not be asked again, it was called {calls} times"
    )
    handled = agent_world.toolset.handle.await_count
    assert handled == limit, f"only the {limit} failing tool calls should run, the toolset ran {handled}"


@given("工具调用依次返回:")
def agent_tool_sequence(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    outcomes: dict[str, list[Callable[[Mapping[str, Any]], _ToolResult]]] = {
        "失败": [lambda call: _countable_failure()],
        "成功": [lambda call: _ok()],
        "执行错误": [lambda call: _execution_error()],
        "失败与执行错误": [lambda call: _countable_failure(), lambda call: _execution_error()],
        "两个失败": [lambda call: _countable_failure(), lambda call: _countable_failure()],
        "失败与成功": [lambda call: _countable_failure(), lambda call: _ok()],
        "失败与沙箱拦截": [lambda call: _countable_failure(), lambda call: _blocked("~/.ssh/id_rsa")],
        "成功且输出用法说明": [lambda call: _ok(HELP_OUTPUT)],
    }
    for _, outcome in datatable[1:]:
        results = outcomes[outcome]
        call = {"name": "Bash", "arguments": {"command": FAILING_COMMAND}}
        agent_world.llm.reply_tool_calls([call] * len(results))
        agent_world.tool_results.extend(results)


@given(parsers.parse('第 {turn:d} 轮模型直接回复 "{text}"'))
def agent_final_reply(agent_world: AgentWorld, turn: int, text: str) -> None:
    assert agent_world.llm.pending == turn - 1, f"setting up: {turn - 1} tool rounds should come first"
    agent_world.llm.reply_text(text)


@when("连续执行两次 `runner.run(...)`")
def agent_run_twice(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    for _ in range(2):
        agent_world.attempt(lambda: run(runner.run("请执行命令")))
        agent_world.run_texts.append(_run_text(agent_world))


@then(parsers.parse('两次 run 应依次返回 "{first}" 与 "{second}"'))
def agent_two_runs_returned(agent_world: AgentWorld, first: str, second: str) -> None:
    assert agent_world.run_texts == [first, second], (
        f"the two runs should return {[first, second]}, got {agent_world.run_texts}"
    )


@then(parsers.parse('run 应返回 "{text}"'))
def agent_run_returned_text(agent_world: AgentWorld, text: str) -> None:
    """``\\n`` in the expected text stands for a line break."""
    expected = text.replace("\\n", "\n")
    actual = _run_text(agent_world)
    assert actual == expected, f"run() should return {expected!r}, got {actual!r}"


@then(parsers.parse("模型应被调用 {count:d} 次"))
def agent_model_called(agent_world: AgentWorld, count: int) -> None:
    calls = len(agent_world.llm.calls)
    assert calls == count, f"the model should be called {count} times, got {calls}"


@then("停止提示应作为最后一条 assistant 消息留在历史中")
def agent_stop_message_in_history(agent_world: AgentWorld) -> None:
    text = _run_text(agent_world)
    last = agent_world.runner().history[-1]
    assert last.get("role") == "assistant" and _text_of(last) == text and not last.get("toolCalls"), (
        f"the stop message should stay as the last assistant message for a resumed session: {last}"
    )


@then("每一轮模型调用都应看到上一轮的工具调用与结果")
def agent_model_sees_tool_results(agent_world: AgentWorld) -> None:
    calls = agent_world.llm.calls
    for number in range(1, len(calls)):
        sent = list(calls[number].messages)
        assert len(sent) >= 2, f"model call {number + 1} was sent only {sent}"
        assistant, tool = sent[-2], sent[-1]
        ids = _tool_call_ids(assistant)
        assert assistant.get("role") == "assistant" and ids, (
            f"model call {number + 1} should see the previous round's tool call, got {assistant}"
        )
        assert tool.get("role") == "tool" and tool.get("toolCallId") == ids[0], (
            f"model call {number + 1} should see the tool result answering {ids[0]}, got {tool}"
        )
    failure = _countable_failure()
    first_result = list(calls[1].messages)[-1]
    assert failure.message in _text_of(first_result), (
        f"the tool message should carry the tool's message {failure.message!r}, got {first_result}"
    )


@given("运行过程中持续存在工具调用且超过 `maxIterations`")
def agent_endless_tool_calls(agent_world: AgentWorld) -> None:
    agent_world.script_tool_rounds(53, "ls")


@then("应返回 `Reached tool iteration limit` 提示")
def agent_run_returned_hint(agent_world: AgentWorld) -> None:
    text = "Reached tool iteration limit"
    actual = _run_text(agent_world)
    assert text in actual, f"run() should return the {text!r} message, got {actual!r}"


@then("提示中包含 `Use --help to see command usage.`")
def agent_hint_contains(agent_world: AgentWorld) -> None:
    text = "Use --help to see command usage."
    actual = _run_text(agent_world)
    assert text in actual, f"the message should include {text!r}, got {actual!r}"


@then("模型调用次数应等于上限，之后不再调用")
def agent_model_calls_equal_limit(agent_world: AgentWorld) -> None:
    calls = len(agent_world.llm.calls)
    limit = agent_world.expected_limit
    assert calls == limit, (
        f"with a limit of {limit} iterations the model should be called {limit} times, got {calls}"
    )


@given("调用 `runner.run(userMessage, { signal })` 且 signal 已 abort")
def agent_aborted_signal(agent_world: AgentWorld) -> None:
    agent_world.signal = _Signal(aborted=True)
    agent_world.user_message = "这条消息不应进入历史"
    agent_world.llm.reply_text("不应被请求的回复")


@given(parsers.parse("runner 恢复的会话中已有 {count:d} 条历史消息"))
def agent_session_with_messages(agent_world: AgentWorld, count: int) -> None:
    messages = [
        _text("user" if i % 2 == 0 else "assistant", f"earlier message {i + 1}") for i in range(count)
    ]
    session = agent_world.new_session(messages)
    agent_world.session_file_before = session.history_path.read_bytes()


@when("进入执行流程")
def agent_enter_run(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.run(agent_world.user_message, signal=agent_world.signal)))


@then("应立即抛出中断相关错误")
def agent_abort_raised(agent_world: AgentWorld) -> None:
    error = agent_world.error
    assert error is not None, f"run() with an aborted signal should raise, it returned {agent_world.result!r}"
    assert type(error).__name__ == "AbortError" or "aborted" in str(error).lower(), (
        f"the error should be an abort error (class AbortError or 'aborted' in the message), got {error!r}"
    )
    assert not agent_world.llm.calls, "an aborted run must not call the model"
    assert agent_world.toolset.handle.await_count == 0, "an aborted run must not run tools"


@then("不应追加新一轮消息到历史")
def agent_nothing_appended(agent_world: AgentWorld) -> None:
    history = agent_world.runner().history
    assert history == agent_world.seed_history, f"the in-memory history must be unchanged, got {history}"
    session = agent_world.resumed_session()
    assert session.history_path.read_bytes() == agent_world.session_file_before, (
        "the session file must be unchanged"
    )


@given("`stopHookExecutor.shouldExecute()` 为 true")
def agent_stop_hooks_enabled(agent_world: AgentWorld) -> None:
    """A real, enabled executor over a registry whose one hook records its calls and adds a note."""
    registry = agent_world.synapse.stop_hook_registry()

    async def recording_hook(context: contract.StopHookContext) -> dict[str, str]:
        agent_world.hook_calls.append(context)
        return {"message": HOOK_NOTE}

    def loader(target: contract.StopHookRegistry) -> None:
        agent_world.loader_calls += 1
        if agent_world.abort_on_load:
            assert agent_world.signal is not None
            agent_world.signal.aborted = True
        target.register("agent-spec-hook", recording_hook)

    # Hooks are registered by the loader, which only the executor's init() runs: a runner that does not
    # initialise its stop hooks before running finds none.
    agent_world.stop_hooks = agent_world.synapse.stop_hook_executor(
        enabled=True, registry=registry, loader=loader
    )
    assert agent_world.stop_hooks.should_execute() is True, "an enabled stop-hook executor should execute"


@given(parsers.parse('模型直接回复 "{text}"'))
def agent_model_replies(agent_world: AgentWorld, text: str) -> None:
    agent_world.llm.reply_text(text)
    agent_world.user_message = text


@when("`runWithPotentialPermission` 正常完成且无权限中断")
def agent_run_completes(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.run("完成任务")))
    agent_world.succeeded()
    assert runner.get_pending_sandbox_permission() is None, "the run should end without a permission request"


@then("应执行 `executeAndAppend`")
def agent_hooks_executed(agent_world: AgentWorld) -> None:
    calls = agent_world.hook_calls
    assert len(calls) == 1, (
        f"the stop hooks should run once at the end of a normal run, ran {len(calls)} times"
    )
    final = agent_world.user_message
    assert calls[0].final_response == final, f"the hooks should see the final response {final!r}"


@then("返回包含 Hook 追加后的结果")
def agent_hook_result_returned(agent_world: AgentWorld) -> None:
    marker = agent_world.synapse.stop_hook_marker
    expected = f"{agent_world.user_message}\n\n{marker}\n{HOOK_NOTE}"
    actual = _run_text(agent_world)
    assert actual == expected, f"run() should return the response with the hook messages appended: {actual!r}"


@given(parsers.parse("本次运行将以{ending}结束"))
def agent_run_will_end(agent_world: AgentWorld, monkeypatch: pytest.MonkeyPatch, ending: str) -> None:
    if ending == "沙箱权限请求":
        agent_world.script_blocked_call("cat ~/.ssh/id_rsa")
    elif ending == "连续工具失败":
        agent_world.default_result = _countable_failure
        agent_world.script_tool_rounds(5, FAILING_COMMAND)
    elif ending == "达到工具迭代上限":
        monkeypatch.setenv("SYNAPSE_MAX_TOOL_ITERATIONS", "2")
        agent_world.script_tool_rounds(5, "ls")
    else:
        raise AssertionError(f"unknown way to end a run: {ending}")


@then("不应执行 `executeAndAppend`")
def agent_hooks_not_executed(agent_world: AgentWorld) -> None:
    _run_text(agent_world)
    assert not agent_world.hook_calls, "stop hooks must not run when the run did not complete normally"


@then("返回不应包含 Hook 追加内容")
def agent_no_hook_text(agent_world: AgentWorld) -> None:
    text = _run_text(agent_world)
    marker = agent_world.synapse.stop_hook_marker
    assert marker not in text and HOOK_NOTE not in text, f"the result must not carry hook output: {text!r}"


# --------------------------------------------------------------------------------------------------------
# compact 成功后应更新历史并发出 compact 事件
# --------------------------------------------------------------------------------------------------------

SUMMARY = "早先讨论了项目结构、测试策略与发布计划"


@given("`forceCompact()` 返回 `success=true`")
def agent_compaction_will_succeed(agent_world: AgentWorld) -> None:
    agent_world.llm.reply_text(SUMMARY)
    agent_world.use_char_counter = True


@given(parsers.parse("runner 恢复的会话中已有 {count:d} 条较长的历史消息"))
def agent_session_with_long_messages(agent_world: AgentWorld, count: int) -> None:
    messages = [
        _text("user" if i % 2 == 0 else "assistant", f"message {i + 1}: " + "关于模块划分的详细讨论。" * 40)
        for i in range(count)
    ]
    agent_world.new_session(messages)


@given(parsers.parse("runner 恢复的会话中有一轮超长的工具结果和 {count:d} 条较长的历史消息"))
def agent_session_with_tool_round(agent_world: AgentWorld, count: int) -> None:
    messages = _log_round("Show me the build log", "build step ok\n" * 250)
    messages += [
        _text("assistant" if i % 2 == 0 else "user", f"message {i + 1}: " + "关于模块划分的详细讨论。" * 40)
        for i in range(count)
    ]
    agent_world.new_session(messages)
    agent_world.use_char_counter = True


@given("上下文设置为:")
def agent_context_settings(
    agent_world: AgentWorld, monkeypatch: pytest.MonkeyPatch, datatable: list[list[str]]
) -> None:
    for name, value in zip(datatable[0], datatable[1], strict=True):
        monkeypatch.setenv(name, value)


@given(parsers.parse('压缩模型将回复摘要，随后模型回复 "{text}"'))
def agent_summary_then_reply(agent_world: AgentWorld, text: str) -> None:
    agent_world.llm.reply_text(SUMMARY)
    agent_world.llm.reply_text(text)
    agent_world.user_message = text


@then("应先后触发 `offload` 与 `compact` 事件")
def agent_offload_then_compact(agent_world: AgentWorld) -> None:
    _run_text(agent_world)
    kinds = [kind for kind, _ in agent_world.tagged_events]
    assert kinds == ["offload", "compact"], f"one offload event, then one compact event expected, got {kinds}"
    offload, compact = (payload for _, payload in agent_world.tagged_events)
    assert offload.get("count") == 1 and offload.get("freedTokens", 0) > 0, (
        f"the offload event should report the one offloaded tool result and the freed tokens: {offload}"
    )
    assert set(compact) == {"previousTokens", "currentTokens", "freedTokens", "deletedFileCount"}, compact
    assert compact["freedTokens"] == compact["previousTokens"] - compact["currentTokens"] > 0, compact


@then("`compact` 事件的 token 数应是卸载后与压缩后历史的 token 数")
def agent_compact_event_figures(agent_world: AgentWorld) -> None:
    _run_text(agent_world)
    events = dict(agent_world.tagged_events)
    assert set(events) == {"offload", "compact"}, f"one offload and one compact event expected: {events}"
    before = message_tokens([*agent_world.seed_history, _text("user", "请执行命令")])
    offloaded = before - events["offload"]["freedTokens"]
    compact = events["compact"]
    assert compact["previousTokens"] == offloaded, (
        f"the compaction started from the offloaded history: {before} tokens before the step minus the "
        f"{events['offload']['freedTokens']} the offload freed is {offloaded}, the event says "
        f"previousTokens={compact['previousTokens']}"
    )
    compacted = agent_world.runner().history[:-1]  # the answer came after the compaction
    assert compact["currentTokens"] == message_tokens(compacted), (
        f"currentTokens should count the compacted history ({message_tokens(compacted)}), got {compact}"
    )
    assert compact["freedTokens"] == compact["previousTokens"] - compact["currentTokens"], compact


@then("模型本轮应基于压缩后的历史作答")
def agent_answer_on_compacted_history(agent_world: AgentWorld) -> None:
    assert _run_text(agent_world) == agent_world.user_message, "the run should end with the model's answer"
    sent = list(agent_world.llm.calls[-1].messages)
    assert any(SUMMARY in _text_of(m) for m in sent), (
        "the model should be sent the summary of the older history"
    )
    assert sent[-1] == _text("user", "请执行命令"), "the new request should be the last message sent"
    first = agent_world.seed_history[0]
    assert first not in sent, "the compacted-away messages must not be sent again"
    history = agent_world.runner().history
    assert history[-1] == _text("assistant", agent_world.user_message), "the answer should end the history"


@when("AgentRunner 执行强制压缩")
def agent_force_compact(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    runner.on("compact", agent_world.events.append)
    agent_world.attempt(lambda: run(runner.force_compact()))
    result = agent_world.succeeded()
    assert result.success is True, "the scenario's compaction (summary scripted, long history) should succeed"
    agent_world.compact_result = result


def _compacted(world: AgentWorld) -> contract.CompactResult:
    assert world.compact_result is not None
    return world.compact_result


@then("`history` 应替换为压缩后消息")
def agent_history_replaced(agent_world: AgentWorld) -> None:
    result = _compacted(agent_world)
    compacted = list(result.messages)
    original = agent_world.seed_history
    assert agent_world.runner().history == compacted, "runner.history should be the compacted messages"
    assert len(compacted) < len(original), (
        f"the compacted history should be shorter than {len(original)} messages"
    )
    assert any(SUMMARY in _text_of(m) for m in compacted), "the compacted history should carry the summary"
    kept = result.preserved_count
    assert 0 < kept < len(original), f"preserved_count should count the kept recent messages, got {kept}"
    assert compacted[-kept:] == original[-kept:], "the most recent messages should be kept verbatim"


@then("会话文件应被 rewrite")
def agent_session_rewritten(agent_world: AgentWorld) -> None:
    result = _compacted(agent_world)
    session = agent_world.resumed_session()
    lines = session.history_path.read_text(encoding="utf-8").splitlines()
    on_disk = [json.loads(line) for line in lines if line.strip()]
    assert on_disk == list(result.messages), "the session file should hold exactly the compacted history"
    assert session.load_history() == list(result.messages), (
        "a resumed session should load the compacted history"
    )
    leftovers = [p.name for p in agent_world.sessions_dir.iterdir() if ".tmp" in p.name]
    assert not leftovers, f"the atomic rewrite should leave no temporary files: {leftovers}"


@then("应触发 `compact` 事件")
def agent_compact_event(agent_world: AgentWorld) -> None:
    result = _compacted(agent_world)
    expected = {
        "previousTokens": result.previous_tokens,
        "currentTokens": result.current_tokens,
        "freedTokens": result.freed_tokens,
        "deletedFileCount": len(result.deleted_files),
    }
    assert agent_world.events == [expected], (
        f"one compact event with {expected} expected, got {agent_world.events}"
    )
    assert result.previous_tokens == message_tokens(agent_world.seed_history), (
        "previousTokens should count the history before compaction with the injected token counter"
    )
    assert result.freed_tokens == result.previous_tokens - result.current_tokens > 0, "tokens should be freed"


# --------------------------------------------------------------------------------------------------------
# 工具协议历史清洗
# --------------------------------------------------------------------------------------------------------


def _tool_call_ids(message: Mapping[str, Any]) -> list[str]:
    return [str(call.get("id")) for call in message.get("toolCalls") or []]


def _dangling_ids(history: list[contract.Message]) -> set[str]:
    answered = {m.get("toolCallId") for m in history if m.get("role") == "tool"}
    return {
        i for m in history if m.get("role") == "assistant" for i in _tool_call_ids(m) if i not in answered
    }


def _well_formed_protocol(messages: list[contract.Message]) -> str | None:
    """None when every tool call has object-JSON arguments and results, and every result has its call."""
    open_ids: set[str] = set()
    for index, message in enumerate(messages):
        if message.get("role") == "assistant" and message.get("toolCalls"):
            if open_ids:
                return f"message {index}: new tool calls while {sorted(open_ids)} are unanswered"
            for call in message["toolCalls"]:
                if not _is_object_json(call.get("arguments")):
                    return (
                        f"message {index}: tool call {call.get('id')} has arguments {call.get('arguments')!r}"
                    )
            open_ids = set(_tool_call_ids(message))
        elif message.get("role") == "tool":
            call_id = message.get("toolCallId")
            if call_id not in open_ids:
                return f"message {index}: tool message {call_id!r} answers no open tool call"
            open_ids.discard(str(call_id))
        elif open_ids:
            return f"message {index}: {message.get('role')} message while {sorted(open_ids)} are unanswered"
    return f"tool calls {sorted(open_ids)} are never answered" if open_ids else None


@given("历史中存在 assistant toolCalls 但缺失对应 tool 消息")
def agent_dangling_history(agent_world: AgentWorld, docstring: str) -> None:
    history = json.loads(docstring)
    assert _dangling_ids(history), "setting up: the history should hold a tool call without a result"
    agent_world.new_session(history)


@when("AgentRunner 运行新请求前执行 sanitize")
def agent_run_new_request(agent_world: AgentWorld) -> None:
    agent_world.llm.reply_text("Recovered response", usage=agent_world.reply_usage)
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.run("New request")))


@then("悬空 toolCalls 应被移除")
def agent_dangling_removed(agent_world: AgentWorld) -> None:
    _run_text(agent_world)
    dangling = _dangling_ids(agent_world.seed_history)
    views = {
        "runner.history": agent_world.runner().history,
        "the persisted history": agent_world.persisted_history(),
        **{f"model call {i + 1}": list(call.messages) for i, call in enumerate(agent_world.llm.calls)},
    }
    for where, messages in views.items():
        left = {i for m in messages for i in _tool_call_ids(m)} & dangling
        assert not left, f"{where} still holds the dangling tool calls {sorted(left)}"
        problem = _well_formed_protocol(messages)
        assert problem is None, f"{where} breaks the tool protocol: {problem}"
    kept = [m for m in agent_world.seed_history if not set(_tool_call_ids(m)) & dangling]
    history = views["runner.history"]
    position = 0
    for message in kept:
        assert message in history[position:], f"the sanitizer should keep {message} (in order)"
        position = history.index(message, position) + 1


@then("后续请求可正常完成")
def agent_request_completes(agent_world: AgentWorld) -> None:
    assert _run_text(agent_world) == "Recovered response", (
        "the request should complete with the model's answer"
    )
    history = agent_world.runner().history
    assert history[-2:] == [_text("user", "New request"), _text("assistant", "Recovered response")], (
        f"the new request and its answer should end the history, got {history[-2:]}"
    )


def _sanitizer_seed(arguments_placeholder: str) -> list[contract.Message]:
    return [
        _text("user", "List files"),
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "good-call-1", "name": "Bash", "arguments": '{"command":"ls"}'}],
        },
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "good-call-1"},
        _text("assistant", "Found a.txt"),
        _text("user", "Run it"),
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Running"}],
            "toolCalls": [{"id": "bad-call-1", "name": "Bash", "arguments": arguments_placeholder}],
        },
        {"role": "tool", "content": [{"type": "text", "text": "oops"}], "toolCallId": "bad-call-1"},
        _text("user", "Next"),
    ]


@given("assistant toolCall.arguments 不是合法对象 JSON 字符串")
def agent_malformed_arguments(agent_world: AgentWorld) -> None:
    agent_world.seed_history = _sanitizer_seed("")
    agent_world.removed = lambda m: "bad-call-1" in _tool_call_ids(m) or m.get("toolCallId") == "bad-call-1"


@given(parsers.re(r"^该 toolCall\.arguments 为 `(?P<arguments>[^`]*)`$"))
def agent_arguments_value(agent_world: AgentWorld, arguments: str) -> None:
    assert not _is_object_json(arguments), f"setting up: {arguments!r} should not be an object JSON string"
    for message in agent_world.seed_history:
        for call in message.get("toolCalls") or []:
            if call["id"] == "bad-call-1":
                call["arguments"] = arguments


@given("历史中出现没有上游 assistant toolCall 对应的 tool 消息")
def agent_orphan_tool_message(agent_world: AgentWorld) -> None:
    agent_world.seed_history = [
        _text("user", "Hello"),
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "good-call-1", "name": "Bash", "arguments": '{"command":"pwd"}'}],
        },
        {"role": "tool", "content": [{"type": "text", "text": "/work"}], "toolCallId": "good-call-1"},
        _text("assistant", "You are in /work"),
        {"role": "tool", "content": [{"type": "text", "text": "stale output"}], "toolCallId": "orphan-call"},
        _text("user", "Continue"),
    ]
    agent_world.removed = lambda m: m.get("toolCallId") == "orphan-call"


@given(parsers.re(r"^模型首轮输出的 toolCall\.arguments 为 `(?P<arguments>[^`]*)`$"))
def agent_model_emits_malformed(agent_world: AgentWorld, arguments: str) -> None:
    assert not _is_object_json(arguments), f"setting up: {arguments!r} should not be an object JSON string"
    agent_world.llm.reply_tool_calls([{"id": "bad-call-1", "name": "Bash", "arguments": arguments}])


@given(parsers.parse('模型随后回复 "{text}"'))
def agent_model_then_replies(agent_world: AgentWorld, text: str) -> None:
    agent_world.llm.reply_text(text)


@then("runner 的历史中不应再有该 assistant/tool 序列")
def agent_malformed_round_gone(agent_world: AgentWorld) -> None:
    assert _run_text(agent_world) == "Recovered response", "the run should complete after the malformed round"
    history = agent_world.runner().history
    left = [m for m in history if "bad-call-1" in _tool_call_ids(m) or m.get("toolCallId") == "bad-call-1"]
    assert not left, f"the malformed tool round should be removed from the history: {left}"
    assert history[-1] == _text("assistant", "Recovered response"), "the final answer should end the history"


@when("执行 sanitizer")
def agent_execute_sanitizer(agent_world: AgentWorld) -> None:
    seed = copy.deepcopy(agent_world.seed_history)
    agent_world.sanitize_result = agent_world.synapse.sanitize_tool_protocol_history(copy.deepcopy(seed))
    agent_world.new_session(seed)
    agent_world.llm.reply_text("Recovered response")
    runner = agent_world.runner()
    agent_world.attempt(lambda: run(runner.run("继续")))


def _sanitizer_checks(world: AgentWorld) -> None:
    text = _run_text(world)
    removed = world.removed
    assert removed is not None
    expected = [m for m in world.seed_history if not removed(m)]
    direct = world.sanitize_result
    assert direct is not None
    assert list(direct.sanitized) == expected, f"sanitizeToolProtocolHistory should keep exactly {expected}"
    assert direct.changed is True, "sanitizeToolProtocolHistory should report that it changed the history"
    history = world.runner().history
    assert history[: len(expected)] == expected, "the runner should continue from the sanitized history"
    assert not any(removed(m) for m in history), "the removed messages must not come back into the history"
    assert world.persisted_history() == history, "the session file should hold the sanitized history"
    assert text == "Recovered response", f"the next request should complete, got {text!r}"


@then("对应 assistant/tool 序列应被移除")
def agent_malformed_sequence_removed(agent_world: AgentWorld) -> None:
    _sanitizer_checks(agent_world)


@then("不应向上游模型回放畸形协议")
def agent_no_malformed_replay(agent_world: AgentWorld) -> None:
    calls = agent_world.llm.calls
    assert calls, "the runner should have asked the model"
    for number, call in enumerate(calls, start=1):
        problem = _well_formed_protocol(list(call.messages))
        assert problem is None, f"model call {number} was sent a malformed tool protocol: {problem}"
        assert not any("bad-call-1" in json.dumps(m) for m in call.messages), (
            "the malformed tool call was replayed"
        )


@then("该孤立 tool 消息应被删除")
def agent_orphan_removed(agent_world: AgentWorld) -> None:
    _sanitizer_checks(agent_world)
    for number, call in enumerate(agent_world.llm.calls, start=1):
        assert not any(m.get("toolCallId") == "orphan-call" for m in call.messages), (
            f"model call {number} was sent the orphan tool message"
        )


# -- beyond the seed: sanitizing keeps session data ------------------------------------------------------


@given("一个会话的历史引用了该会话目录下的卸载文件，并含有悬空 assistant toolCalls")
def agent_session_with_offload_and_dangling(agent_world: AgentWorld) -> None:
    session = agent_world.synapse.create_session(agent_world.sessions_dir, model=MODEL, pricing={})
    offloaded = session.offload_dir / "offloaded"
    offloaded.mkdir(parents=True, exist_ok=True)
    agent_world.offload_file = offloaded / "spec-build-log.txt"
    agent_world.offload_content = "build log line\n" * 200
    agent_world.offload_file.write_text(agent_world.offload_content, encoding="utf-8")
    history = [
        *_log_round("Read the build log", f"Tool result is at: {agent_world.offload_file}"),
        _text("assistant", "The log is long; the failure is in step 3."),
        _text("user", "Fix it"),
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "fix-call", "name": "Bash", "arguments": '{"command":"make fix"}'}],
        },
    ]
    session.append_message(copy.deepcopy(history))
    agent_world.session_id = session.id
    agent_world.seed_history = history


@given("该会话已记录过一轮用量")
def agent_session_has_usage(agent_world: AgentWorld) -> None:
    session = agent_world.resumed_session()
    session.update_usage(
        {"inputOther": 120, "output": 45, "inputCacheRead": 30, "inputCacheCreation": 5}, MODEL
    )
    agent_world.usage_before = session.get_usage()
    agent_world.reply_usage = {"inputOther": 7, "output": 3, "inputCacheRead": 0, "inputCacheCreation": 0}


@then("被引用的卸载文件应仍然存在且内容不变")
def agent_offload_file_kept(agent_world: AgentWorld) -> None:
    path = agent_world.offload_file
    assert path is not None
    assert path.is_file(), (
        f"sanitizing must not delete the offloaded file {path} that the history still references"
    )
    assert path.read_text(encoding="utf-8") == agent_world.offload_content, (
        "the offloaded file must be unchanged"
    )


@then("会话用量应在原有累计值上加上本次请求的用量")
def agent_usage_accumulated(agent_world: AgentWorld) -> None:
    before, added = agent_world.usage_before, agent_world.reply_usage
    assert before is not None and added is not None
    after = agent_world.resumed_session().get_usage()
    pairs = {
        "totalInputOther": "inputOther",
        "totalOutput": "output",
        "totalCacheRead": "inputCacheRead",
        "totalCacheCreation": "inputCacheCreation",
    }
    for total, key in pairs.items():
        assert after[total] == before[total] + added[key], (
            f"{total} should keep the earlier {before[total]} and add this request's {added[key]}, "
            f"got {after[total]}"
        )
    assert len(after["rounds"]) == len(before["rounds"]) + 1, "the earlier usage rounds must be kept"


@then("会话文件应与 runner 的历史一致")
def agent_file_matches_history(agent_world: AgentWorld) -> None:
    assert agent_world.persisted_history() == agent_world.runner().history, (
        "the session file should hold the runner's (sanitized) history"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: a failed save of the compacted history loses nothing
# --------------------------------------------------------------------------------------------------------

# Writing a file larger than this fails (RLIMIT_FSIZE), as on a full disk: the compacted history is larger,
# whatever write path the implementation takes.
SAVE_LIMIT_BYTES = 1024


@given("runner 恢复的会话中有 8 条较长的历史消息，最早的工具结果已卸载到文件")
def agent_session_with_offloaded_result(agent_world: AgentWorld) -> None:
    session = agent_world.new_session([])
    offloaded = Path(session.offload_dir) / "offloaded" / "build-log.txt"
    offloaded.parent.mkdir(parents=True, exist_ok=True)
    agent_world.offload_content = "build step ok\n" * 200
    offloaded.write_text(agent_world.offload_content, encoding="utf-8")
    agent_world.offload_file = offloaded
    messages = _log_round("Show me the build log", f"Tool result is at: {offloaded}")
    messages += [
        _text("assistant" if i % 2 == 0 else "user", f"message {i + 1}: " + "关于模块划分的详细讨论。" * 40)
        for i in range(5)
    ]
    session.append_message(copy.deepcopy(messages))
    agent_world.seed_history = copy.deepcopy(messages)
    agent_world.session_file_before = session.history_path.read_bytes()
    agent_world.use_char_counter = True


@given("压缩模型将回复摘要")
def agent_summary_scripted(agent_world: AgentWorld) -> None:
    agent_world.llm.reply_text(SUMMARY)


@when("会话文件无法写入时 AgentRunner 执行强制压缩")
def agent_force_compact_with_failing_save(synapse: contract.Implementation, agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    runner.on("compact", agent_world.events.append)
    assert runner.history == agent_world.seed_history, "the runner should resume the seeded history"
    # Writes of the implementation's process past the limit fail with EFBIG (a full disk).
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, SAVE_LIMIT_BYTES):
        agent_world.attempt(lambda: run(runner.force_compact()))


@then("压缩应报告失败且 runner 的历史保持原样")
def agent_compaction_reported_failure(agent_world: AgentWorld) -> None:
    if agent_world.error is None:
        result = agent_world.result
        assert result.success is False, (
            "a compaction whose history could not be saved must not report success"
        )
        assert result.freed_tokens == 0, f"nothing was freed, got freed_tokens={result.freed_tokens}"
        assert list(result.messages) == agent_world.seed_history, (
            "the result should carry the original history"
        )
    assert len(agent_world.llm.calls) == 1, "the summary should have been generated before the save was tried"
    assert agent_world.runner().history == agent_world.seed_history, "runner.history should be unchanged"
    assert not agent_world.events, f"no compact event should be emitted: {agent_world.events}"


@then("会话文件与卸载文件都应保持原样")
def agent_nothing_lost(agent_world: AgentWorld) -> None:
    offloaded = agent_world.offload_file
    assert offloaded is not None
    assert offloaded.is_file(), f"the offload file the saved history references was deleted: {offloaded}"
    assert offloaded.read_text(encoding="utf-8") == agent_world.offload_content, "the offload file changed"
    session = agent_world.resumed_session()
    assert session.history_path.read_bytes() == agent_world.session_file_before, (
        "the session file should be byte-identical to the history before the compaction"
    )


@then("会话标题与索引中的标题仍应是压缩前第一条用户消息的标题")
def agent_title_survives_compaction(agent_world: AgentWorld) -> None:
    first_user = next(m for m in agent_world.seed_history if m.get("role") == "user")
    text = _text_of(first_user)
    expected = text if len(text) <= 50 else text[:47] + "..."
    session = agent_world.resumed_session()
    assert session.title == expected, f"the session title should stay {expected!r}, got {session.title!r}"
    entries = [
        e for e in agent_world.synapse.list_sessions(agent_world.sessions_dir) if e["id"] == session.id
    ]
    assert entries and entries[0].get("title") == expected, (
        f"the index title should stay {expected!r}: {entries}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: details of the permission request and of the answers
# --------------------------------------------------------------------------------------------------------


def _blocked(resource: object, message: str = "deny file-read") -> _ToolResult:
    return _ToolResult(
        output="",
        message=message,
        brief="Sandbox blocked",
        extras={"type": "sandbox_blocked", "resource": resource},
    )


@given("Agent 首轮工具调用被沙箱拦截，结果没有 message 且 `extras.resource` 不是字符串")
def agent_blocked_without_details(agent_world: AgentWorld) -> None:
    agent_world.script_blocked_call("cat ~/.ssh/id_rsa")
    agent_world.tool_results[-1] = lambda call: _blocked(42, message="")


@given(parsers.parse('Agent 首轮工具调用被沙箱拦截，结果的 output 为 "{output}"，message 为 "{message}"'))
def agent_blocked_with_output(agent_world: AgentWorld, output: str, message: str) -> None:
    """``\\n`` in the output stands for a line break."""
    agent_world.script_blocked_call("ls ~/.ssh && cat ~/.ssh/id_rsa")
    blocked = replace(_blocked("~/.ssh/id_rsa", message=message), output=output.replace("\\n", "\n"))
    agent_world.tool_results[-1] = lambda call: blocked


@then("待处理的权限请求的资源、原因与命令应为:")
def agent_pending_fields(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    expected = dict(zip(datatable[0], datatable[1], strict=True))
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is not None, "the blocked command should leave a pending permission request"
    actual = {"resource": pending.resource, "reason": pending.reason, "command": pending.command}
    assert actual == expected, f"the pending request should be {expected}, got {actual}"


def _returning(result: _ToolResult) -> Callable[[Mapping[str, Any]], _ToolResult]:
    return lambda call: result


@given("模型首轮同时调用这些 Bash 命令，结果依次为（拦截的资源是命令的最后一个参数）:")
def agent_round_of_calls(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    calls = []
    for command, outcome in datatable[1:]:
        calls.append({"name": "Bash", "arguments": {"command": command}})
        resource = command.split()[-1]
        result = _blocked(resource) if outcome == "拦截" else _ok(f"listing of {resource}")
        agent_world.tool_results.append(_returning(result))
    agent_world.llm.reply_tool_calls(calls)
    agent_world.llm.reply_text("这一轮回复不应被请求")


@then(
    parsers.parse(
        "本轮 {count:d} 个工具调用都应执行，历史以该轮的 assistant 消息与 {results:d} 条 tool 结果结束"
    )
)
def agent_whole_round_kept(agent_world: AgentWorld, count: int, results: int) -> None:
    handled = agent_world.toolset.handle.await_count
    assert handled == count, f"every tool call of the round should run, the toolset ran {handled}"
    history = agent_world.runner().history
    assistant, tools = history[-results - 1], history[-results:]
    ids = _tool_call_ids(assistant)
    assert assistant.get("role") == "assistant" and len(ids) == count, (
        f"the assistant message with the round's {count} tool calls should precede the results: {assistant}"
    )
    assert [m.get("toolCallId") for m in tools] == ids, f"one tool result per call, in order: {tools}"


@given(parsers.re(r"^模型首轮调用工具 \"(?P<tool>[^\"]+)\"，参数为 `(?P<arguments>[^`]*)`，结果被沙箱拦截$"))
def agent_blocked_tool_arguments(agent_world: AgentWorld, tool: str, arguments: str) -> None:
    agent_world.llm.reply_tool_calls([{"id": "call-1", "name": tool, "arguments": arguments}])
    agent_world.llm.reply_text("这一轮回复不应被请求")
    agent_world.tool_results.append(lambda call: _blocked("/etc/shadow"))


@then(parsers.re(r'^permission 的命令应为 "(?P<command>[^"]*)"$'))
def agent_permission_command(agent_world: AgentWorld, command: str) -> None:
    actual = _permission(agent_world).command
    assert actual == command, f"the permission's command should be {command!r}, got {actual!r}"


@then(
    parsers.re(
        r"^Bash 工具应只被调用 `(?P<method>allowSession|allowPermanent)"
        r'\("(?P<path>[^"]*)", cwd\)` 一次，随后重试命令$'
    )
)
def agent_whitelisted_exactly(agent_world: AgentWorld, method: str, path: str) -> None:
    _resolved_text(agent_world)
    mock = _bash_mock(agent_world, method)
    assert _awaited_with(mock, path, agent_world.cwd), (
        f"{method} should be awaited once with ({path!r}, cwd), got {mock.await_args_list}"
    )
    expected_log = [
        method.replace("allowSession", "allow_session").replace("allowPermanent", "allow_permanent")
    ]
    assert agent_world.bash_log == [*expected_log, "call"], (
        f"only {method}, then the retry, should reach the Bash tool: {agent_world.bash_log}"
    )


@given(
    parsers.re(
        r'^无沙盒执行将输出 stdout "(?P<stdout>[^"]*)"、stderr "(?P<stderr>[^"]*)"，退出码 (?P<code>\d+)$'
    )
)
def agent_unsandboxed_run(agent_world: AgentWorld, stdout: str, stderr: str, code: str) -> None:
    """``\\n`` in the outputs stands for a line break."""
    agent_world.unsandboxed_output = stdout.replace("\\n", "\n")
    agent_world.unsandboxed_stderr = stderr.replace("\\n", "\n")
    agent_world.unsandboxed_exit_code = int(code)


@given(parsers.re(r'^重试命令将返回 output "(?P<output>[^"]*)"、message "(?P<message>[^"]*)"$'))
def agent_retry_result(agent_world: AgentWorld, output: str, message: str) -> None:
    """``\\n`` in the output and message stands for a line break."""
    agent_world.retry_output = output.replace("\\n", "\n")
    agent_world.retry_message = message.replace("\\n", "\n")


@then(parsers.re(r'^回答应为 "(?P<answer>.*)"$'))
def agent_answer_is(agent_world: AgentWorld, answer: str) -> None:
    """``\\n`` in the expected answer stands for a line break."""
    expected = answer.replace("\\n", "\n")
    actual = _resolved_text(agent_world)
    assert actual == expected, f"the answer should be exactly {expected!r}, got {actual!r}"


@given("工具集中没有 Bash 工具")
def agent_no_bash_tool(agent_world: AgentWorld) -> None:
    agent_world.toolset.get_tool.side_effect = lambda name: None


@then("待处理的权限请求应仍是原来的请求")
def agent_request_still_pending(agent_world: AgentWorld) -> None:
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is not None, "a request that could not be carried out should stay pending"
    actual = (pending.resource, pending.command)
    expected = (agent_world.block_resource, agent_world.command)
    assert actual == expected, f"the pending request should still be {expected}, got {actual}"


@then(parsers.parse('应抛出错误并指出未知的选项 "{option}"'))
def agent_unknown_option(agent_world: AgentWorld, option: str) -> None:
    error = agent_world.error
    assert error is not None, f"an unknown option should raise, it returned {agent_world.result!r}"
    assert option in str(error), f"the error should name the option {option!r}, got {error!r}"


@given("runner 创建时不指定工作目录")
def agent_no_cwd(agent_world: AgentWorld) -> None:
    import os

    agent_world.pass_cwd = False
    agent_world.cwd = os.getcwd()


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: which failures count, their logs, explicit limits and aborts mid-run
# --------------------------------------------------------------------------------------------------------


@given(
    parsers.re(
        r'^工具每次都返回错误，failureCategory 为 "(?P<category>[^"]*)"，brief 为 "(?P<brief>[^"]*)"，'
        r'output 为 "(?P<output>[^"]*)"$'
    )
)
def agent_tool_error_kind(agent_world: AgentWorld, category: str, brief: str, output: str) -> None:
    extras = {"failureCategory": category} if category else None
    failure = _ToolResult(is_error=True, output=output, message=brief, brief=brief, extras=extras)
    agent_world.default_result = lambda: failure


@given(
    parsers.re(
        r'^工具每次都返回错误，failureCategory 为空字符串 ""，brief 为 "(?P<brief>[^"]*)"，'
        r'output 为 "(?P<output>[^"]*)"$'
    )
)
def agent_tool_error_empty_category(agent_world: AgentWorld, brief: str, output: str) -> None:
    """The category is present and empty, which is not the same as no category (AGT-104)."""
    failure = _ToolResult(
        is_error=True, output=output, message=brief, brief=brief, extras={"failureCategory": ""}
    )
    agent_world.default_result = lambda: failure


@given(
    parsers.re(
        r'^工具每次都返回没有 failureCategory 的错误，brief 为 "(?P<brief>[^"]*)"，'
        r'output 为 "(?P<output>[^"]*)"，message 为 "(?P<message>[^"]*)"$'
    )
)
def agent_tool_error_with_message(agent_world: AgentWorld, brief: str, output: str, message: str) -> None:
    failure = _ToolResult(is_error=True, output=output, message=message, brief=brief, extras=None)
    agent_world.default_result = lambda: failure


@given(parsers.parse('{rounds:d} 轮工具调用之后模型直接回复 "{text}"'))
def agent_rounds_then_reply(agent_world: AgentWorld, rounds: int, text: str) -> None:
    for _ in range(rounds):
        agent_world.llm.reply_tool_calls([{"name": "Bash", "arguments": {"command": FAILING_COMMAND}}])
    agent_world.llm.reply_text(text)


@then("`synapse.*` 日志应依次记录这些工具失败警告:")
def agent_failure_warnings(agent_logs: pytest.LogCaptureFixture, datatable: list[list[str]]) -> None:
    expected = [row[0] for row in datatable[1:]]
    warnings = [r.getMessage() for r in probes.implementation_records(agent_logs.records, logging.WARNING)]
    failures = [m for m in warnings if m.startswith("Tool execution failed")]
    assert failures == expected, f"one warning per failing round expected: {expected}, got {warnings}"


@then(parsers.parse("`synapse.*` 日志应在最后一条警告之后记录 {count:d} 条停止的错误"))
def agent_stop_error_logged(agent_logs: pytest.LogCaptureFixture, count: int) -> None:
    records = [r for r in agent_logs.records if r.name.split(".")[0] == "synapse"]
    errors = [r for r in records if r.levelno == logging.ERROR]
    assert len(errors) == count, f"{count} error record(s) expected when the runner stops, got {errors}"
    last_warning = max(i for i, r in enumerate(records) if r.levelno == logging.WARNING)
    assert records.index(errors[-1]) > last_warning, "the stop should be logged after the last failure"
    assert "consecutive" in errors[-1].getMessage().lower(), f"the error should say why: {errors[-1]}"


@then(parsers.parse("`synapse.*` 日志应记录 {count:d} 条说明达到工具迭代上限的错误"))
def agent_iteration_limit_logged(agent_logs: pytest.LogCaptureFixture, count: int) -> None:
    errors = [probes.logged_text(r) for r in probes.implementation_records(agent_logs.records, logging.ERROR)]
    assert len(errors) == count and all(
        re.search(r"iteration limit|迭代上限", text, re.IGNORECASE) for text in errors
    ), f"{count} error record(s) saying the iteration limit was reached expected, got {errors}"


@given(parsers.re(r"^runner 创建时指定(?P<limit>工具迭代上限|连续失败阈值)为 (?P<value>\d+)$"))
def agent_explicit_limit(agent_world: AgentWorld, limit: str, value: str) -> None:
    if limit == "工具迭代上限":
        agent_world.max_iterations = int(value)
    else:
        agent_world.max_failures = int(value)


@given(parsers.parse('工具连续失败 {rounds:d} 轮之后模型直接回复 "{text}"'))
def agent_failing_rounds_then_reply(agent_world: AgentWorld, rounds: int, text: str) -> None:
    agent_world.default_result = _countable_failure
    agent_rounds_then_reply(agent_world, rounds, text)


@then("不应加载 Stop Hook")
def agent_hooks_not_loaded(agent_world: AgentWorld) -> None:
    assert agent_world.loader_calls == 0, (
        f"an aborted request should stop before loading the stop hooks, they were loaded "
        f"{agent_world.loader_calls} time(s)"
    )


@given("加载 Stop Hook 时用户中断了本次请求")
def agent_abort_while_loading(agent_world: AgentWorld) -> None:
    agent_world.signal = _Signal(aborted=False)
    agent_world.abort_on_load = True
    agent_world.user_message = "这条消息不应进入历史"


@given(parsers.parse("模型首轮调用 {count:d} 个 Bash 命令，第一个命令执行时用户中断了请求"))
def agent_abort_during_tool(agent_world: AgentWorld, count: int) -> None:
    signal = _Signal(aborted=False)
    agent_world.signal = signal
    agent_world.llm.reply_tool_calls(
        [{"name": "Bash", "arguments": {"command": f"make step-{i + 1}"}} for i in range(count)]
    )
    agent_world.llm.reply_text("这一轮回复不应被请求")

    def interrupted(call: Mapping[str, Any]) -> _ToolResult:
        signal.aborted = True
        return _ok("step output")

    agent_world.tool_results.append(interrupted)


def _abort_error(world: AgentWorld) -> BaseException:
    error = world.error
    assert error is not None, f"the interrupted run should raise, it returned {world.result!r}"
    assert type(error).__name__ == "AbortError" or "aborted" in str(error).lower(), (
        f"the error should be an abort error (class AbortError or 'aborted' in the message), got {error!r}"
    )
    return error


@then(parsers.parse("应抛出中断相关错误，工具只执行了 {count:d} 次"))
def agent_abort_after_tool(agent_world: AgentWorld, count: int) -> None:
    _abort_error(agent_world)
    handled = agent_world.toolset.handle.await_count
    assert handled == count, f"no tool should run after the interruption, the toolset ran {handled}"
    assert len(agent_world.llm.calls) == 1, "the model must not be asked again after the interruption"


@then("历史与会话文件只应多出本次的用户消息")
def agent_only_user_message_added(agent_world: AgentWorld) -> None:
    expected = [*agent_world.seed_history, _text("user", agent_world.user_message)]
    history = agent_world.runner().history
    assert history == expected, f"the interrupted tool round must not be kept, history is {history}"
    assert agent_world.persisted_history() == expected, "the session file must not keep the interrupted round"


@given("压缩模型生成摘要时用户中断了本次请求")
def agent_abort_during_summary(agent_world: AgentWorld) -> None:
    llm = agent_world.llm

    class _AbortedOnceTheModelIsCalled:
        @property
        def aborted(self) -> bool:
            return len(llm.calls) >= 1

    agent_world.signal = _AbortedOnceTheModelIsCalled()  # type: ignore[assignment]
    llm.reply_text(SUMMARY)
    llm.reply_text("这一轮回复不应被请求")


@then("应抛出中断相关错误，模型只为摘要被调用了 1 次")
def agent_abort_after_summary(agent_world: AgentWorld) -> None:
    _abort_error(agent_world)
    calls = agent_world.llm.calls
    assert len(calls) == 1, (
        f"only the summary should have been asked for, the model was called {len(calls)} times"
    )
    assert calls[0].system_prompt != "", "the one call should be the summary request"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: the session seen by stop hooks, offload-only rounds, compaction without a session, logs
# --------------------------------------------------------------------------------------------------------


@then("Stop Hook 应看到会话 id、runner 的完整历史与 runner 的工作目录")
def agent_hook_context(agent_world: AgentWorld) -> None:
    (context,) = agent_world.hook_calls
    assert context.session_id == agent_world.session_id, (
        f"the hook should see the session id {agent_world.session_id!r}, got {context.session_id!r}"
    )
    history = agent_world.runner().history
    assert list(context.messages) == history, f"the hook should see the whole history {history}"
    assert context.cwd == agent_world.cwd, f"the hook should see the runner's cwd, got {context.cwd!r}"


@then(parsers.parse("应只触发 1 次卸载 {count:d} 条工具结果的 `offload` 事件"))
def agent_offload_only(agent_world: AgentWorld, count: int) -> None:
    _run_text(agent_world)
    kinds = [kind for kind, _ in agent_world.tagged_events]
    assert kinds == ["offload"], f"one offload event and no compaction expected, got {kinds}"
    payload = agent_world.tagged_events[0][1]
    assert payload.get("count") == count and payload.get("freedTokens", 0) > 0, (
        f"the offload event should report {count} offloaded result(s) and the freed tokens: {payload}"
    )


@then("模型本轮应看到卸载引用而不是原工具结果")
def agent_model_sees_reference(agent_world: AgentWorld) -> None:
    sent = list(agent_world.llm.calls[-1].messages)
    tool_texts = [_text_of(m) for m in sent if m.get("role") == "tool"]
    assert len(tool_texts) == 1 and tool_texts[0].startswith("Tool result is at: "), (
        f"the model should be sent the offload reference, got {tool_texts}"
    )
    path = Path(tool_texts[0].removeprefix("Tool result is at: "))
    original = _text_of(agent_world.seed_history[2])
    assert path.read_text(encoding="utf-8") == original, "the offloaded file should hold the tool result"
    history = agent_world.runner().history
    assert [m for m in history if m.get("role") == "tool"] == [m for m in sent if m.get("role") == "tool"], (
        "the runner's history should carry the same reference"
    )


@given("runner 没有会话，并已完成一次请求")
def agent_sessionless_run(agent_world: AgentWorld) -> None:
    agent_world.use_char_counter = True
    agent_world.llm.reply_text("好的")
    runner = agent_world.runner()
    assert run(runner.run("你好")) == "好的", "setting up: the request should complete"
    agent_world.seed_history = runner.history


@then("压缩结果应是原历史，前后 token 数相同且不删除文件")
def agent_sessionless_compaction(agent_world: AgentWorld) -> None:
    result = _compacted(agent_world)
    history = agent_world.seed_history
    assert list(result.messages) == history, f"nothing should be compacted: {result.messages}"
    assert agent_world.runner().history == history, "the runner's history should be unchanged"
    tokens = message_tokens(history)
    actual = (result.previous_tokens, result.current_tokens, result.freed_tokens, list(result.deleted_files))
    assert actual == (tokens, tokens, 0, []), (
        f"(previous, current, freed, deleted) should be ({tokens}, {tokens}, 0, []), got {actual}"
    )
    assert len(agent_world.llm.calls) == 1, "no summary should be asked for"


@then("应触发一次不释放 token 的 `compact` 事件")
def agent_noop_compact_event(agent_world: AgentWorld) -> None:
    tokens = message_tokens(agent_world.seed_history)
    expected = {"previousTokens": tokens, "currentTokens": tokens, "freedTokens": 0, "deletedFileCount": 0}
    assert agent_world.events == [expected], (
        f"one compact event {expected} expected, got {agent_world.events}"
    )


@then(
    parsers.re(
        r'^`synapse\.\*` 日志应记录 1 条清洗警告，阶段为 "(?P<stage>[^"]+)"，'
        r"消息数从 (?P<before>\d+) 变为 (?P<after>\d+)$"
    )
)
def agent_sanitize_logged(agent_logs: pytest.LogCaptureFixture, stage: str, before: str, after: str) -> None:
    warnings = [
        probes.logged_text(r)
        for r in probes.implementation_records(agent_logs.records, logging.WARNING)
        if r.getMessage().startswith("Sanitized dangling or malformed tool-call history")
    ]
    assert len(warnings) == 1, f"one sanitize warning expected, got {warnings}"
    numbers = re.findall(r"\d+", warnings[0])
    named = re.search(rf"(?<!\w){re.escape(stage)}(?!\w)", warnings[0])
    assert named is not None and numbers == [before, after], (
        f"the warning should name the stage {stage!r} and the counts {before} -> {after}: {warnings[0]}"
    )


@then(parsers.re(r'^提示全文应为 "(?P<text>.*)"$'))
def agent_hint_is(agent_world: AgentWorld, text: str) -> None:
    """``\\n`` in the expected text stands for a line break."""
    expected = text.replace("\\n", "\n")
    actual = _run_text(agent_world)
    assert actual == expected, f"run() should return exactly {expected!r}, got {actual!r}"


@when("runner 清空会话")
def agent_clear_session(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    usage = runner.get_session_usage()
    assert usage is not None and usage["rounds"], "setting up: the blocked request should have recorded usage"
    runner.clear_session()


@then("runner 的历史与会话文件都应为空，会话用量应归零")
def agent_session_cleared(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    assert runner.history == [], f"the runner should forget the conversation, history is {runner.history}"
    assert agent_world.persisted_history() == [], "the session file should be emptied"
    usage = runner.get_session_usage()
    assert usage is not None, "a runner with a session should still report its usage"
    totals = {k: usage[k] for k in ("totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation")}
    assert set(totals.values()) == {0} and usage["rounds"] == [], f"the usage should be reset: {usage}"


@then("runner 的会话用量应为空")
def agent_no_session_usage(agent_world: AgentWorld) -> None:
    usage = agent_world.runner().get_session_usage()
    assert usage is None, f"a runner without a session has no session usage, got {usage!r}"


@given("一个 `compact` 事件监听器会抛出异常")
def agent_failing_listener(agent_world: AgentWorld) -> None:
    def failing(payload: dict[str, Any]) -> None:
        raise RuntimeError("listener is broken")

    agent_world.runner().on("compact", failing)


@then(parsers.parse("`synapse.*` 日志应记录 {count:d} 条带有监听器异常的警告"))
def agent_listener_failure_logged(agent_logs: pytest.LogCaptureFixture, count: int) -> None:
    warnings = probes.implementation_records(agent_logs.records, logging.WARNING)
    assert len(warnings) == count, f"{count} warning(s) about the failing listener expected, got {warnings}"
    assert "compact" in warnings[0].getMessage(), f"the warning should name the event: {warnings[0]}"
    error = probes.logged_error(warnings[0])
    assert error == ("RuntimeError", "listener is broken"), (
        f"the warning should carry the listener's error (its name and message) for diagnosis, got {error}"
    )


@then(parsers.parse('step 的回答应为 "{text}" 且没有权限请求'))
def agent_step_response(agent_world: AgentWorld, text: str) -> None:
    result = _step_result(agent_world)
    assert result.response == text, f"step() should answer {text!r}, got {result.response!r}"
    assert result.permission is None, f"a completed step has no permission request, got {result.permission!r}"


@then("Stop Hook 不应运行")
def agent_hooks_did_not_run(agent_world: AgentWorld) -> None:
    assert not agent_world.hook_calls, "step() never runs the stop hooks"


@given(
    parsers.re(
        r'^模型首轮调用 1 个 Bash 命令，工具返回 output "(?P<output>[^"]*)"、message "(?P<message>[^"]*)"$'
    )
)
def agent_tool_output_and_message(agent_world: AgentWorld, output: str, message: str) -> None:
    """``\\n`` in the output and message stands for a line break."""
    output, message = output.replace("\\n", "\n"), message.replace("\\n", "\n")
    agent_world.llm.reply_tool_calls([{"id": "call-1", "name": "Bash", "arguments": {"command": "ls"}}])
    agent_world.tool_results.append(_returning(_ToolResult(output=output, message=message)))


@then(parsers.re(r'^模型第 (?P<number>\d+) 次调用看到的 tool 消息文本应为 "(?P<text>.*)"$'))
def agent_tool_message_text(agent_world: AgentWorld, number: str, text: str) -> None:
    """``\\n`` in the expected text stands for a line break, ``{U+XXXX}`` for a code point."""
    _run_text(agent_world)
    expected = cells.text(text)
    sent = list(agent_world.llm.calls[int(number) - 1].messages)
    tool = sent[-1]
    assert tool.get("role") == "tool" and tool.get("toolCallId") == "call-1", (
        f"the tool result should come last: {tool}"
    )
    assert _text_of(tool) == expected, f"the tool message should read {expected!r}, got {_text_of(tool)!r}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: the sanitized history is protocol-valid for any input
# --------------------------------------------------------------------------------------------------------

BAD_ROUND_TEXT = "坏的一轮"
BAD_RESULT_TEXT = "坏的一轮的结果"
_REPEATED_CHAR = re.compile(r"<(.) 重复 (\d+) 次>")


def _in_bad_round(message: Mapping[str, Any]) -> bool:
    return _text_of(message) in (BAD_ROUND_TEXT, BAD_RESULT_TEXT)


@given(parsers.re(r"^历史中坏的一轮 assistant 的 toolCalls 为 `(?P<calls>.+)`$"))
def agent_bad_round_calls(agent_world: AgentWorld, calls: str) -> None:
    """``<[ 重复 100000 次>`` in the arguments stands for that character written that many times."""
    tool_calls = json.loads(calls)
    for call in tool_calls:
        if isinstance(call.get("arguments"), str):
            call["arguments"] = _REPEATED_CHAR.sub(lambda m: m[1] * int(m[2]), call["arguments"])
    agent_world.seed_history = [
        *_sanitizer_seed('{"command":"ls -l"}')[:4],
        _text("user", "Run it"),
        {**_text("assistant", BAD_ROUND_TEXT), "toolCalls": tool_calls},
        _text("user", "Next"),
    ]
    assert agent_world.seed_history[1]["toolCalls"][0]["id"] == "good-call-1"
    agent_world.removed = _in_bad_round


@given(parsers.re(r"^坏的一轮之后的 tool 消息依次回答 `(?P<answers>.+)`$"))
def agent_bad_round_answers(agent_world: AgentWorld, answers: str) -> None:
    results = [{**_text("tool", BAD_RESULT_TEXT), "toolCallId": answer} for answer in json.loads(answers)]
    position = next(i for i, m in enumerate(agent_world.seed_history) if _text_of(m) == BAD_ROUND_TEXT) + 1
    agent_world.seed_history[position:position] = results


@then("发给模型的每一次请求都应符合严格的工具协议")
def agent_model_calls_strict_protocol(agent_world: AgentWorld) -> None:
    calls = agent_world.llm.calls
    assert calls, "the runner should have asked the model"
    for number, call in enumerate(calls, start=1):
        problem = fuzz.tool_protocol_problem(list(call.messages))
        assert problem is None, f"model call {number} was sent a history the provider rejects: {problem}"


@given("待清洗的历史为:")
def agent_history_to_sanitize(agent_world: AgentWorld, docstring: str) -> None:
    agent_world.seed_history = json.loads(docstring)


@given(parsers.re(r"^待清洗的历史为合规的一轮工具调用之后依次接上 `(?P<entries>.+)`$"))
def agent_history_after_valid_round(agent_world: AgentWorld, entries: str) -> None:
    """Entries 1-4 are a user request, a one-call round with its result and the assistant's answer."""
    agent_world.seed_history = [
        _text("user", "List files"),
        {
            "role": "assistant",
            "content": [],
            "toolCalls": [{"id": "good-1", "name": "Bash", "arguments": '{"command":"ls"}'}],
        },
        {"role": "tool", "content": [{"type": "text", "text": "a.txt"}], "toolCallId": "good-1"},
        _text("assistant", "Found a.txt"),
        *json.loads(entries),
    ]


@given(
    parsers.re(r"^待清洗的历史以一轮工具调用开始，其 toolCalls 为 `(?P<calls>.+)`，每个调用都有 tool 结果$")
)
def agent_history_starting_with_round(agent_world: AgentWorld, calls: str) -> None:
    """A user request, the round (its results in call order; a call that is no object is answered by
    itself as the id) and the assistant's answer."""
    tool_calls = json.loads(calls)
    agent_world.seed_history = [
        _text("user", "List files"),
        {"role": "assistant", "content": [], "toolCalls": tool_calls},
        *(
            {"role": "tool", "content": [], "toolCallId": call["id"] if isinstance(call, dict) else call}
            for call in tool_calls
        ),
        _text("assistant", "Done"),
    ]


@when("直接执行 `sanitizeToolProtocolHistory(messages)`")
def agent_sanitize_directly(agent_world: AgentWorld) -> None:
    seed = copy.deepcopy(agent_world.seed_history)
    agent_world.attempt(lambda: agent_world.synapse.sanitize_tool_protocol_history(seed))


def _sanitized(world: AgentWorld) -> contract.SanitizeResult:
    result = world.succeeded()
    assert result is not None and isinstance(result.sanitized, list), (
        f"sanitizeToolProtocolHistory should return the sanitized list, got {result!r}"
    )
    return result  # type: ignore[no-any-return]


@then("清洗不应抛出异常")
def agent_sanitize_did_not_raise(agent_world: AgentWorld) -> None:
    _sanitized(agent_world)


@then(parsers.re(r"^清洗结果应恰好为原历史的第 `(?P<numbers>[\d,]+)` 条，且报告历史已改变$"))
def agent_sanitized_exactly(agent_world: AgentWorld, numbers: str) -> None:
    result = _sanitized(agent_world)
    expected = [agent_world.seed_history[int(n) - 1] for n in numbers.split(",")]
    assert list(result.sanitized) == expected, (
        f"the sanitizer should keep exactly entries {numbers}: {expected}, got {result.sanitized}"
    )
    assert result.changed is True, "entries were removed, so the result should report a change"


@then("清洗结果应符合严格的工具协议")
def agent_sanitized_strict_protocol(agent_world: AgentWorld) -> None:
    problem = fuzz.tool_protocol_problem(list(_sanitized(agent_world).sanitized))
    assert problem is None, f"the sanitized history would be rejected by a provider: {problem}"


# Inputs that broke an implementation once; every search tries them first.
SANITIZER_REGRESSIONS: list[list[Any]] = [
    [None],
    [{"role": "assistant", "toolCalls": 5}],
    [
        {"role": "assistant", "toolCalls": [{"id": "d", "name": "Bash", "arguments": "{}"}] * 2},
        {"role": "tool", "toolCallId": "d"},
    ],
    [
        {"role": "assistant", "toolCalls": [{"name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "toolCallId": "None"},
    ],
    [
        {"role": "assistant", "toolCalls": [{"id": 1, "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "toolCallId": "1"},
    ],
    [
        {"role": "assistant", "toolCalls": [{"id": "n", "name": "Bash", "arguments": '{"x": NaN}'}]},
        {"role": "tool", "toolCallId": "n"},
    ],
    [
        {"role": "assistant", "toolCalls": [{"id": "r", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "toolCallId": "r"},
        {"role": "assistant", "toolCalls": [{"id": "r", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "toolCallId": "r"},
    ],
]


@given("随机生成的历史：条目可以是任意 JSON，消息的 id、arguments 与角色取自已知会出错的值")
def agent_generated_histories(agent_world: AgentWorld) -> None:
    agent_world.removed = None
    agent_world.seed_history = []
    assert fuzz.tool_protocol_problem(SANITIZER_REGRESSIONS[2]) is not None, "setting up: a known-bad input"


@when("对每个历史执行 `sanitizeToolProtocolHistory(messages)`")
def agent_sanitize_generated(agent_world: AgentWorld) -> None:
    sanitize = agent_world.synapse.sanitize_tool_protocol_history
    agent_world.result = fuzz.trials(fuzz.hostile_histories(), sanitize, examples=SANITIZER_REGRESSIONS)


def _sanitize_trials(world: AgentWorld) -> list[fuzz.Trial]:
    found = world.result
    assert isinstance(found, list) and found, "the search should have tried some histories"
    return found


def _protocol_problem(trial: fuzz.Trial) -> str | None:
    if trial.error is not None:
        return f"raised {trial.error!r}"
    return fuzz.tool_protocol_problem(list(trial.output.sanitized))


@then("每个结果都应符合严格的工具协议")
def agent_generated_results_valid(agent_world: AgentWorld) -> None:
    failure = fuzz.first_failure(_sanitize_trials(agent_world), _protocol_problem)
    assert failure is None, f"the sanitized history breaks the tool protocol: {failure}"


def _only_removed(trial: fuzz.Trial) -> str | None:
    if trial.error is not None:
        return f"raised {trial.error!r}"
    kept = list(trial.output.sanitized)
    if not fuzz.is_subsequence(kept, trial.input):
        return f"the result {kept!r:.300} is not the input with entries removed"
    users = [m for m in trial.input if isinstance(m, dict) and m.get("role") == "user"]
    if [m for m in kept if isinstance(m, dict) and m.get("role") == "user"] != users:
        return "a user message was removed"
    return None


@then("每个结果都只是原历史删去若干条目，user 消息一条不少")
def agent_generated_results_only_remove(agent_world: AgentWorld) -> None:
    failure = fuzz.first_failure(_sanitize_trials(agent_world), _only_removed)
    assert failure is None, f"the sanitizer may only remove entries: {failure}"


def _stable(synapse: contract.Implementation) -> Callable[[fuzz.Trial], str | None]:
    def problem(trial: fuzz.Trial) -> str | None:
        if trial.error is not None:
            return f"raised {trial.error!r}"
        kept = list(trial.output.sanitized)
        if trial.output.changed is not (kept != trial.input):
            return f"changed is {trial.output.changed!r} although the result differs: {kept != trial.input}"
        again = synapse.sanitize_tool_protocol_history(copy.deepcopy(kept))
        if list(again.sanitized) != kept or again.changed:
            return f"sanitizing the result again changed it to {again.sanitized!r:.300}"
        return None

    return problem


@then("对结果再清洗一次应不再改变，`changed` 恰好在删去条目时为真")
def agent_generated_results_stable(agent_world: AgentWorld) -> None:
    failure = fuzz.first_failure(_sanitize_trials(agent_world), _stable(agent_world.synapse))
    assert failure is None, f"the sanitizer is not stable: {failure}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: a pending permission request lives only as long as its turn
# --------------------------------------------------------------------------------------------------------

OLD_BLOCKED_COMMAND = "cat ~/.ssh/id_rsa"
NEW_BLOCKED_COMMAND = "cat ~/.aws/config"
MODEL_FAILURE = "model unavailable"
ANSWER_FAILURE = "sandbox helper crashed"
LATER_ANSWER = "当前目录有 3 个文件"


@given("沙箱拦截了 `cat ~/.ssh/id_rsa`，runner 正在等待权限回答")
def agent_waiting_for_permission(agent_world: AgentWorld) -> None:
    agent_world.command = OLD_BLOCKED_COMMAND
    agent_world.llm.reply_tool_calls(
        [{"id": "old-call", "name": "Bash", "arguments": {"command": OLD_BLOCKED_COMMAND}}]
    )
    agent_world.tool_results.append(_returning(_blocked("~/.ssh/id_rsa")))
    result = run(agent_world.runner().step("读取密钥"))
    assert result.status == "requires_permission", f"setting up: step() should ask, got {result.status}"
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is not None and pending.command == OLD_BLOCKED_COMMAND, (
        f"setting up: pending is {pending!r}"
    )


def _later_request(world: AgentWorld, kind: str) -> Callable[[], Any]:
    runner = world.runner()
    signal = _Signal(aborted=kind == "开始前就已中止的新请求")
    if kind in ("以 step 完成的新请求", "以 run 完成的新请求", "开始前就已中止的新请求"):
        world.llm.reply_text(LATER_ANSWER)
    elif kind == "工具执行时被中止的新请求":
        world.llm.reply_tool_calls([{"name": "Bash", "arguments": {"command": "ls"}}])

        def interrupted(call: Mapping[str, Any]) -> _ToolResult:
            signal.aborted = True
            return _ok("a.txt")

        world.tool_results.append(interrupted)
    elif kind == "模型调用失败的新请求":
        world.llm.fail(RuntimeError(MODEL_FAILURE))
    elif kind == "又被沙箱拦截的新请求":
        world.llm.reply_tool_calls([{"name": "Bash", "arguments": {"command": NEW_BLOCKED_COMMAND}}])
        world.tool_results.append(_returning(_blocked("~/.aws/config")))
    else:
        raise AssertionError(f"unknown later request {kind!r}")
    if kind == "以 run 完成的新请求":
        return lambda: run(runner.run("列出当前目录", signal=signal))
    return lambda: run(runner.step("列出当前目录", signal=signal))


def _answer(world: AgentWorld, kind: str) -> Callable[[], Any]:
    option = kind.rsplit(" ", 1)[1]
    if kind.startswith("执行时出错的回答"):
        failure = OSError(ANSWER_FAILURE)
        world.bash.execute_unsandboxed.side_effect = failure
        world.bash.allow_session.side_effect = failure
        world.bash.allow_permanent.side_effect = failure
    runner = world.runner()
    return lambda: run(runner.resolve_sandbox_permission(option))


@when(parsers.re(r"^接着发生(?P<kind>.+)$"))
def agent_then_happens(agent_world: AgentWorld, kind: str) -> None:
    action = _answer(agent_world, kind) if "回答" in kind else _later_request(agent_world, kind)
    agent_world.attempt(action)


@then(
    parsers.re(
        r"^这次操作应(?P<outcome>完成|被中止|因模型错误失败|提出新的权限请求|得到回答|因执行错误失败)$"
    )
)
def agent_operation_outcome(agent_world: AgentWorld, outcome: str) -> None:
    result, error = agent_world.result, agent_world.error
    if outcome == "被中止":
        _abort_error(agent_world)
    elif outcome in ("因模型错误失败", "因执行错误失败"):
        expected = MODEL_FAILURE if outcome == "因模型错误失败" else ANSWER_FAILURE
        assert error is not None and expected in str(error), (
            f"the call should fail with {expected!r}, got {error!r}"
        )
    elif outcome == "得到回答":
        assert isinstance(agent_world.succeeded(), str), f"the answer should be a text, got {result!r}"
    elif isinstance(agent_world.succeeded(), str):  # run() answers with the final text
        assert result == LATER_ANSWER and outcome == "完成", f"the request should {outcome}, got {result!r}"
    else:
        status = "requires_permission" if outcome == "提出新的权限请求" else "completed"
        assert result.status == status, f"step() should return status {status!r}, got {result!r}"
        if status == "completed":
            assert result.response == LATER_ANSWER, f"step() should answer {LATER_ANSWER!r}, got {result!r}"
        else:
            assert result.permission is not None and result.permission.command == NEW_BLOCKED_COMMAND, (
                f"the new request should ask about {NEW_BLOCKED_COMMAND!r}, got {result.permission!r}"
            )


@then("旧的权限请求不应再待处理")
def agent_old_request_gone(agent_world: AgentWorld) -> None:
    pending = agent_world.runner().get_pending_sandbox_permission()
    assert pending is None or pending.command != OLD_BLOCKED_COMMAND, (
        f"the request for {OLD_BLOCKED_COMMAND!r} belongs to an earlier turn, yet is pending: {pending!r}"
    )


def _runs_of_old_command(world: AgentWorld) -> int:
    unsandboxed = [
        c for c in world.bash.execute_unsandboxed.await_args_list if c.args[:1] == (OLD_BLOCKED_COMMAND,)
    ]
    retried = [
        c for c in world.bash.call.await_args_list if c.args[:1] == ({"command": OLD_BLOCKED_COMMAND},)
    ]
    return len(unsandboxed) + len(retried)


@then("之后回答 `allow_once` 不应在沙箱外执行旧命令")
def agent_allow_once_does_not_run_old_command(agent_world: AgentWorld) -> None:
    runner = agent_world.runner()
    pending = runner.get_pending_sandbox_permission()
    before = _runs_of_old_command(agent_world)
    agent_world.bash.execute_unsandboxed.side_effect = None
    agent_world.attempt(lambda: run(runner.resolve_sandbox_permission("allow_once")))
    after = _runs_of_old_command(agent_world)
    assert after == before, (
        f"allow_once ran the earlier turn's blocked command {OLD_BLOCKED_COMMAND!r} outside the sandbox"
    )
    if pending is None:
        error = agent_world.error
        assert error is not None and "No pending sandbox permission request" in str(error), (
            f"with nothing pending, allow_once should be refused, got {agent_world.result!r} / {error!r}"
        )


@given('历史如下，调用 id 以 "bad-" 开头的 assistant 消息及紧随其后的 tool 消息是不完整的一轮')
def agent_history_with_incomplete_round(agent_world: AgentWorld, docstring: str) -> None:
    """The incomplete round is marked by its call ids; the sanitizer must drop it and keep the rest."""
    history: list[contract.Message] = json.loads(docstring)
    dropped: set[int] = set()
    for index, message in enumerate(history):
        if any(call_id.startswith("bad-") for call_id in _tool_call_ids(message)):
            dropped.add(index)
            following = index + 1
            while following < len(history) and history[following].get("role") == "tool":
                dropped.add(following)
                following += 1
    assert dropped, 'setting up: a tool call with an id starting with "bad-" is needed'
    agent_world.seed_history = history
    marked = [json.dumps(history[i], sort_keys=True) for i in sorted(dropped)]
    agent_world.removed = lambda m: json.dumps(m, sort_keys=True) in marked


@given("模型直接回复，回复依次由以下片段组成")
def agent_reply_of_parts(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    parts = reply_parts_of(datatable)
    agent_world.llm = cast(contract.ScriptedLLM, PartsModel(MODEL, parts))


@given(parsers.parse('模型首轮先说 "{said}" 再调用 1 个 Bash 命令，看到结果后回复 "{answer}"'))
def agent_call_with_text(agent_world: AgentWorld, said: str, answer: str) -> None:
    call = {"id": "call-1", "name": "Bash", "arguments": {"command": "cat build.log"}}
    agent_world.llm.reply_tool_calls([call], text=said)
    agent_world.llm.reply_text(answer)
    agent_world.tool_results.append(_returning(_ToolResult(output="build ok")))
    agent_world.user_message = said


@then("工具应执行 1 次，历史依次多出用户消息、带文字的工具调用回复、它的结果与最终回复")
def agent_history_with_text_and_call(agent_world: AgentWorld) -> None:
    answer = _run_text(agent_world)
    handled = agent_world.toolset.handle.await_count
    assert handled == 1, f"the reply's tool call should run once, the toolset handled {handled} calls"
    history = agent_world.runner().history
    assert len(history) == 4, f"four messages expected in the history, got {history}"
    request, call, result, reply = history
    assert request == _text("user", "请执行命令"), f"the request should come first, got {request}"
    ids = _tool_call_ids(call)
    assert call.get("role") == "assistant" and _text_of(call) == agent_world.user_message and len(ids) == 1, (
        f"the reply with text and a tool call should stay whole in the history, got {call}"
    )
    assert result.get("role") == "tool" and result.get("toolCallId") == ids[0], (
        f"the tool call's result should follow it, got {result}"
    )
    assert reply == _text("assistant", answer), f"the history should end with the answer, got {reply}"


@then("历史的最后一条消息应是这条 assistant 回复，文本片段与模型发来的相同")
def agent_history_ends_with_parts_reply(agent_world: AgentWorld) -> None:
    model = agent_world.llm
    assert isinstance(model, PartsModel), "setting up: the model should reply with parts"
    last = agent_world.runner().history[-1]
    sent = [p for p in model.parts if p.get("type") == "text"]
    kept = [p for p in last.get("content") or [] if isinstance(p, dict) and p.get("type") == "text"]
    assert last.get("role") == "assistant" and not last.get("toolCalls") and kept == sent, (
        f"the history should end with the assistant reply and its text parts {sent}, got {last}"
    )


USAGE_KEYS = ("inputOther", "output", "inputCacheRead", "inputCacheCreation")


@given("一个新会话，模型先调用一轮工具、再直接回复，两次回复的用量依次为:")
def agent_two_rounds_with_usage(agent_world: AgentWorld, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    usages = [{key: int(value) for key, value in zip(header, row, strict=True)} for row in rows]
    assert len(usages) == 2 and all(set(u) == set(USAGE_KEYS) for u in usages), "scenario data"
    agent_world.new_session([])
    agent_world.llm.reply_tool_calls([{"name": "Bash", "arguments": {"command": "ls"}}], usage=usages[0])
    agent_world.llm.reply_text("完成", usage=usages[1])
    agent_world.expected_rounds = usages


@then("会话用量的各轮应依次是这两次回复的用量，累计值为它们之和")
def agent_usage_of_every_round(agent_world: AgentWorld) -> None:
    agent_world.succeeded()
    expected = agent_world.expected_rounds
    usage = agent_world.resumed_session().get_usage()
    rounds = [{key: r.get(key) for key in USAGE_KEYS} for r in usage["rounds"]]
    assert rounds == expected, (
        f"every model call's usage should be one round, in order: {expected}, got {rounds}"
    )
    totals = {
        "totalInputOther": "inputOther",
        "totalOutput": "output",
        "totalCacheRead": "inputCacheRead",
        "totalCacheCreation": "inputCacheCreation",
    }
    for total, key in totals.items():
        assert usage[total] == sum(u[key] for u in expected), (
            f"{total} should be the sum of both calls' {key}, got {usage[total]}"
        )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: a tool call whose handling raises gets an error result, and the request goes on
# --------------------------------------------------------------------------------------------------------


@given(
    parsers.re(
        r"^模型首轮同时调用两个 Bash 命令 `(?P<first>[^`]+)` 与 `(?P<second>[^`]+)`，"
        r'工具集处理 `(?P=first)` 时抛出 RuntimeError\("(?P<message>[^"]*)"\)，'
        r'`(?P=second)` 输出 "(?P<output>[^"]*)"$'
    )
)
def agent_round_with_raising_call(
    agent_world: AgentWorld, first: str, second: str, message: str, output: str
) -> None:
    def raising(call: Mapping[str, Any]) -> _ToolResult:
        raise RuntimeError(message)

    agent_world.llm.reply_tool_calls(
        [
            {"id": first, "name": "Bash", "arguments": {"command": "cat build.log"}},
            {"id": second, "name": "Bash", "arguments": {"command": "make build"}},
        ]
    )
    agent_world.tool_results.extend([raising, _returning(_ok(output))])


@then(parsers.re(r"^工具集应依次处理了 `(?P<first>[^`]+)` 与 `(?P<second>[^`]+)`$"))
def agent_toolset_handled(agent_world: AgentWorld, first: str, second: str) -> None:
    handled = [dict(c.args[0]).get("id") for c in agent_world.toolset.handle.await_args_list]
    assert handled == [first, second], (
        f"every call of the round should be handled, in order, after one raised: {handled}"
    )


@then(parsers.parse("模型第 {number:d} 次被调用时看到的历史应以这一轮的工具调用及其结果依次结束:"))
def agent_model_saw_round(agent_world: AgentWorld, number: int, datatable: list[list[str]]) -> None:
    expected = [(call_id, text) for call_id, text in datatable[1:]]
    calls = agent_world.llm.calls
    assert len(calls) >= number, f"the model should be called at least {number} times, got {len(calls)}"
    sent = list(calls[number - 1].messages)
    assistant, tools = sent[-len(expected) - 1], sent[-len(expected) :]
    assert assistant.get("role") == "assistant" and _tool_call_ids(assistant) == [i for i, _ in expected], (
        f"model call {number} should see the round's tool calls before their results, got {assistant}"
    )
    actual = [(m.get("toolCallId"), _text_of(m)) for m in tools if m.get("role") == "tool"]
    assert actual == expected, (
        f"model call {number} should see one tool message per call, in order, with these texts: "
        f"{expected}, got {tools}"
    )
