"""Steps for an abort that cancels a running tool (``features/agent/runner_abort_running_tool.feature``):
the runner works with the implementation's own Bash toolset, and the scenario watches the command's
processes through the pid files it writes and ``/proc``; and for an abort while the model answers
(``features/agent/runner_abort_model_call.feature``)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, then, when

from steps.agent import AgentWorld, _abort_error, _text, _text_of
from steps.support import run
from synapse_spec import contract, probes

ABORTED_CALL_ID = "long-call"


def _workdir(world: AgentWorld) -> Path:
    return Path(world.cwd)


@given("runner 使用实现自己的 Bash 工具集，在空的工作目录中运行命令")
def abort_own_bash_toolset(agent_world: AgentWorld) -> None:
    assert not any(_workdir(agent_world).iterdir()), "the working directory should start empty"
    agent_world.own_toolset = agent_world.synapse.bash_toolset(agent_world.cwd)
    agent_world.user_message = "运行那条很慢的命令"


@given("命令写下 pid 文件之后用户中断了请求")
def abort_once_pid_written(agent_world: AgentWorld) -> None:
    agent_world.watched_signal = probes.AbortOnceWritten(_workdir(agent_world) / "pid")


class _AbortedOnceTheModelIsAsked:
    """Satisfies ``contract.AbortSignal``: set (Ctrl-C) as soon as the model has been called, so the runner
    reads it unset before the model call and set once the call has failed.  A live property rather than
    a flag the model sets, since the model is scripted in advance, and over the wire both stay here."""

    def __init__(self, llm: contract.ScriptedLLM) -> None:
        self._llm = llm

    @property
    def aborted(self) -> bool:
        return len(self._llm.calls) >= 1


@given(parsers.parse('模型作答期间用户中断了请求，模型客户端随后抛出不提中断的错误 "{message}"'))
def abort_while_model_answers(agent_world: AgentWorld, message: str) -> None:
    assert "abort" not in message.lower(), "scenario data: the model's own error must not mention aborting"
    agent_world.watched_signal = _AbortedOnceTheModelIsAsked(agent_world.llm)
    # One failure and no reply after it: a runner that asked the model again would find the script
    # exhausted and fail with another error than the abort.
    agent_world.llm.fail(RuntimeError(message))


@given("命令在另一个进程组中启动、pid 写在 job.pid 中的后台进程在场景结束时被结束")
def abort_end_job_afterwards(agent_world: AgentWorld, request: pytest.FixtureRequest) -> None:
    """A process in a group of its own outlives the command's group; the scenario ends it."""
    job = _workdir(agent_world) / "job.pid"

    def end_job() -> None:
        if job.is_file():
            with contextlib.suppress(OSError, AssertionError):  # gone already, or no pid written
                os.kill(probes.read_pid(job), signal.SIGKILL)

    request.addfinalizer(end_job)


@given("请求带着一个从未中止、记下命令运行期间被读取次数的中止信号")
def abort_never_aborted_signal(agent_world: AgentWorld) -> None:
    """The command creates ``started`` first and ``ended`` last; reads in between are reads while it ran."""
    workdir = _workdir(agent_world)
    agent_world.watched_signal = probes.NeverAbortedWhileRunning(workdir / "started", workdir / "ended")


@given(parsers.parse('模型首轮调用 Bash 命令 `{command}` 后回复 "{text}"'))
def abort_first_round_then_reply(agent_world: AgentWorld, command: str, text: str) -> None:
    agent_world.llm.reply_tool_calls(
        [{"id": "timed-call", "name": "Bash", "arguments": {"command": command}}]
    )
    agent_world.llm.reply_text(text)


@then(parsers.parse('请求应返回 "{text}"'))
def abort_request_result(agent_world: AgentWorld, text: str) -> None:
    result = agent_world.succeeded()
    assert result == text, f"the request should complete with {text!r}, got {result!r}"


@then(parsers.parse("命令运行期间中止信号应被读取至少 {low:d} 次、至多 {high:d} 次"))
def abort_signal_reads_while_running(agent_world: AgentWorld, low: int, high: int) -> None:
    signal = agent_world.watched_signal
    assert isinstance(signal, probes.NeverAbortedWhileRunning), "scenario data: the counting signal"
    assert (_workdir(agent_world) / "ended").is_file(), "the command should have run to its end"
    reads = signal.reads_while_running
    assert low <= reads <= high, (
        f"while the command ran the signal should be read every 50 to 100 ms, between {low} and {high} "
        f"times; it was read {reads} times (of {signal.reads} reads in all)"
    )


@given("模型首轮调用 Bash 命令:")
def abort_first_round_command(agent_world: AgentWorld, docstring: str) -> None:
    # No spare reply is scripted: the next request (if any) gets the next replies, and a runner that
    # asked the model again after the abort would find none and fail with another error than AbortError.
    agent_world.llm.reply_tool_calls(
        [{"id": ABORTED_CALL_ID, "name": "Bash", "arguments": {"command": docstring}}]
    )


@given(parsers.parse("模型首轮以用量 `{usage}` 调用 Bash 命令:"))
def abort_first_round_command_with_usage(agent_world: AgentWorld, usage: str, docstring: str) -> None:
    agent_world.reply_usage = json.loads(usage)
    agent_world.llm.reply_tool_calls(
        [{"id": ABORTED_CALL_ID, "name": "Bash", "arguments": {"command": docstring}}],
        usage=agent_world.reply_usage,
    )


@given(parsers.parse("模型首轮依次调用 3 个 Bash 命令，第 2 个是:"))
def abort_second_of_three(agent_world: AgentWorld, docstring: str) -> None:
    agent_world.llm.reply_tool_calls(
        [
            {"id": "first-call", "name": "Bash", "arguments": {"command": "echo first > first.txt"}},
            {"id": ABORTED_CALL_ID, "name": "Bash", "arguments": {"command": docstring}},
            {"id": "third-call", "name": "Bash", "arguments": {"command": "echo third > third.txt"}},
        ]
    )


@given(parsers.parse('下一个请求中模型调用 Bash 命令 `{command}` 后回复 "{text}"'))
def abort_next_request_script(agent_world: AgentWorld, command: str, text: str) -> None:
    agent_world.llm.reply_tool_calls([{"id": "next-call", "name": "Bash", "arguments": {"command": command}}])
    agent_world.llm.reply_text(text)


@when(parsers.parse("以 `{method}` 执行这次请求"))
def abort_run_request(agent_world: AgentWorld, method: str) -> None:
    runner = agent_world.runner()
    signal = agent_world.watched_signal
    assert method in ("step", "run"), f"unknown runner method {method!r}"
    if method == "step":
        agent_world.attempt(lambda: run(runner.step(agent_world.user_message, signal=signal)))
    else:
        agent_world.attempt(lambda: run(runner.run(agent_world.user_message, signal=signal)))


@when(parsers.parse('不带中止信号发出下一个请求 "{text}"'))
def abort_next_request(agent_world: AgentWorld, text: str) -> None:
    agent_world.next_first_call = len(agent_world.llm.calls)
    agent_world.next_message = text
    agent_world.next_result = run(agent_world.runner().run(text))


@then("请求应以中断相关错误结束，模型只被调用了 1 次")
def abort_error_after_one_model_call(agent_world: AgentWorld) -> None:
    _abort_error(agent_world)
    calls = len(agent_world.llm.calls)
    assert calls == 1, f"the model must not be asked again after the abort, it was called {calls} times"


def _pids(world: AgentWorld, names: tuple[str, ...]) -> list[int]:
    paths = [_workdir(world) / name for name in names]
    missing = [path.name for path in paths if not path.is_file()]
    assert not missing, f"the command should have written {', '.join(missing)} before it was aborted"
    return [probes.read_pid(path) for path in paths]


@then("返回时命令的 shell 与它在后台启动的子进程都已不在运行")
def abort_shell_and_child_gone(agent_world: AgentWorld) -> None:
    shell, child = _pids(agent_world, ("pid", "child.pid"))
    left = probes.survivors([shell, child])
    assert not left, (
        f"when the aborted request returns, the command's process group should be gone; still running: "
        f"{', '.join(('shell' if pid == shell else 'background child') + f' {pid}' for pid in left)}"
    )


@then("返回时命令的 shell 已不在运行")
def abort_shell_gone(agent_world: AgentWorld) -> None:
    (shell,) = _pids(agent_world, ("pid",))
    assert not probes.survivors([shell]), (
        f"when the aborted request returns, the command's shell (pid {shell}) should no longer run"
    )


@then("命令在中断之后的部分不应执行：不应写下 marker")
def abort_marker_not_written(agent_world: AgentWorld) -> None:
    assert not (_workdir(agent_world) / "marker").exists(), (
        "the command ran on after the abort: it wrote marker, which only its end writes"
    )


@then(parsers.parse('会话文件中不应出现 "{before}" 或 "{after}"'))
def abort_output_not_recorded(agent_world: AgentWorld, before: str, after: str) -> None:
    session = agent_world.resumed_session()
    raw = session.history_path.read_text(encoding="utf-8")
    recorded = json.dumps(session.load_history(), ensure_ascii=False) + raw
    memory = json.dumps(agent_world.runner().history, ensure_ascii=False)
    for text in (before, after):
        assert text not in recorded, f"the session file keeps the aborted command's output {text!r}"
        assert text not in memory, f"the runner's history keeps the aborted command's output {text!r}"


@then("第 1 个命令应已执行，第 3 个命令不应执行")
def abort_later_calls_skipped(agent_world: AgentWorld) -> None:
    workdir = _workdir(agent_world)
    assert (workdir / "first.txt").is_file(), "the round's first command should have run before the abort"
    assert not (workdir / "third.txt").exists(), "no tool call of the round should run after the abort"


@then(parsers.parse('下一个请求应返回 "{text}"'))
def abort_next_request_result(agent_world: AgentWorld, text: str) -> None:
    assert agent_world.next_result == text, (
        f"the request after the abort should complete with {text!r}, got {agent_world.next_result!r}"
    )


@then("下一个请求首次调用模型时，历史以被中止的用户消息和新的用户消息结尾，没有被中断那一轮的工具调用")
def abort_next_request_history(agent_world: AgentWorld) -> None:
    calls = agent_world.llm.calls
    assert len(calls) > agent_world.next_first_call, "the next request should call the model"
    sent = list(calls[agent_world.next_first_call].messages)
    expected = [
        *agent_world.seed_history,
        _text("user", agent_world.user_message),
        _text("user", agent_world.next_message),
    ]
    assert sent == expected, (
        f"the next request should send the earlier history, the aborted request's user message and the new "
        f"one, with nothing of the interrupted round; it sent {json.dumps(sent, ensure_ascii=False)}"
    )


@then(parsers.parse('模型应看到下一轮命令的工具结果 "{text}"'))
def abort_next_tool_result(agent_world: AgentWorld, text: str) -> None:
    calls = agent_world.llm.calls
    assert len(calls) == agent_world.next_first_call + 2, (
        "the next request should call the model twice: for the command, then after its result"
    )
    last = calls[-1].messages[-1]
    assert last.get("role") == "tool" and last.get("toolCallId") == "next-call", (
        f"the model's last message should be the result of the next request's command, got {last!r}"
    )
    assert text in _text_of(last), f"the tool result should carry the command's output {text!r}: {last!r}"


@then("被中止的 run 不应执行 Stop Hook")
def abort_no_stop_hooks(agent_world: AgentWorld) -> None:
    assert not agent_world.hook_calls, "run() aborted while a tool ran must not run the stop hooks"


@then(parsers.parse('命令的 TERM trap 应已在宽限之内完成清理：cleanup 文件写有 "{text}"'))
def abort_term_trap_cleaned_up(agent_world: AgentWorld, text: str) -> None:
    cleanup = _workdir(agent_world) / "cleanup"
    assert cleanup.is_file(), (
        "the command should get SIGTERM and a grace to clean up before SIGKILL: its TERM trap never wrote "
        "cleanup"
    )
    written = cleanup.read_text(encoding="utf-8").strip()
    assert written == text, f"the TERM trap should write {text!r} to cleanup, it wrote {written!r}"


@then("`synapse.*` 日志不应记录警告：命令的进程组在 SIGKILL 之后如期结束")
def abort_no_warning(agent_logs: pytest.LogCaptureFixture) -> None:
    warnings = [r.getMessage() for r in probes.implementation_records(agent_logs.records, logging.WARNING)]
    assert not warnings, (
        f"ending the command's process group should go as planned, without warnings: {warnings}"
    )


@then("会话用量应恰好记下被中止那一轮模型回复的用量")
def abort_usage_of_aborted_round(agent_world: AgentWorld) -> None:
    expected = agent_world.reply_usage
    assert expected is not None
    usage = agent_world.resumed_session().get_usage()
    rounds = [{key: r.get(key) for key in expected} for r in usage["rounds"]]
    assert rounds == [expected], (
        f"the model call was made before the abort, so its usage is one recorded round: {[expected]}, "
        f"got {rounds}"
    )
