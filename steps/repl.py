"""Steps for the REPL: slash commands (``/skills``, ``/tools``, ``/compact``) and stream display
(``features/repl``)."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
from pytest_bdd import given, parsers, then, when
from pytest_mock import MockerFixture

from steps.support import run
from synapse_spec import contract, probes

SKILL_ENHANCE_PROGRESS_TEXT = "Analyzing skill enhancement..."
ANSI_SGR = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class _CompactResult:
    """Satisfies ``contract.CompactResult``; what the runner double's ``force_compact`` resolves to."""

    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    deleted_files: list[str] = field(default_factory=list)
    success: bool = True
    preserved_count: int = 0
    messages: list[contract.Message] = field(default_factory=list)


@dataclass
class ReplWorld:
    """What one REPL scenario builds and observes."""

    synapse: contract.Implementation
    mocker: MockerFixture
    synapse_home: Path
    inject_home: bool = True
    runner: Any = None
    catalog: Any = None
    listing: str = ""
    skills: dict[str, str] = field(default_factory=dict)
    error_message: str = "compaction failed"
    compact_result: _CompactResult | None = None
    outcome: contract.CommandOutcome | None = None
    error: BaseException | None = None
    is_tty: bool = False
    text: str = ""
    formatted: str | None = None
    loop: asyncio.AbstractEventLoop | None = None
    future: asyncio.Future[_CompactResult] | None = None
    task: asyncio.Task[contract.CommandOutcome] | None = None

    def commands(self) -> contract.ReplCommands:
        return self.synapse.repl_commands(
            runner=self.runner,
            synapse_home=self.synapse_home if self.inject_home else None,
            tool_catalog=self.catalog,
        )

    def output(self) -> str:
        if self.error is not None:
            raise AssertionError(f"the command should not raise, it raised {self.error!r}") from self.error
        assert self.outcome is not None, "the command returned nothing"
        assert self.outcome.handled is True, f"a slash command should be handled, got {self.outcome!r}"
        return self.outcome.output

    def runner_double(self, force_compact: Any) -> None:
        runner = self.mocker.NonCallableMagicMock(name="AgentRunner")
        runner.force_compact = self.mocker.AsyncMock(side_effect=force_compact)
        self.runner = runner


@pytest.fixture
def repl_world(
    synapse: contract.Implementation, tmp_path: Path, mocker: MockerFixture, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ReplWorld]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SYNAPSE_HOME", str(home / ".synapse"))
    world = ReplWorld(synapse=synapse, mocker=mocker, synapse_home=home / ".synapse")
    yield world
    if world.loop is not None:
        if world.task is not None and not world.task.done():
            world.task.cancel()
            world.loop.run_until_complete(asyncio.gather(world.task, return_exceptions=True))
        world.loop.close()


def _figure(value: int) -> str:
    """A token figure as a user reads it: ``100,000`` or ``100000``."""
    return f"(?:{re.escape(f'{value:,}')}|{value})"


def _before_after(previous: int, current: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![\d,]){_figure(previous)}\s*(?:->|→)\s*{_figure(current)}(?![\d,])")


# --------------------------------------------------------------------------------------------------------
# Running a command
# --------------------------------------------------------------------------------------------------------


@when(parsers.re(r"^(?:用户)?执行 `(?P<command>/[\w:]+)`$"))
def repl_execute(repl_world: ReplWorld, command: str) -> None:
    commands = repl_world.commands()
    if repl_world.loop is not None:
        loop = repl_world.loop
        repl_world.task = loop.create_task(commands.handle(command))
        runner = repl_world.runner
        # Until the command has asked the runner to compact (or returned): an implementation in another
        # process answers after some time, not after a fixed number of loop turns.
        probes.run_loop_until(
            loop,
            lambda: (
                repl_world.task is not None
                and (repl_world.task.done() or runner.force_compact.await_count > 0)
            ),
        )
        return
    try:
        repl_world.outcome = run(commands.handle(command))
    except Exception as error:
        repl_world.error = error


@then(parsers.re(r"^输出应包含 `(?P<text>[^`]+)`$"))
def repl_output_contains(repl_world: ReplWorld, text: str) -> None:
    output = repl_world.output()
    assert text in output, f"the output should contain {text!r}:\n{output}"


# --------------------------------------------------------------------------------------------------------
# /skills
# --------------------------------------------------------------------------------------------------------


@given("`~/.synapse/skills` 目录不存在")
def repl_no_skills_dir(repl_world: ReplWorld) -> None:
    repl_world.synapse_home.mkdir(parents=True, exist_ok=True)
    assert not (repl_world.synapse_home / "skills").exists()


@then("输出应包含建议创建路径")
def repl_output_suggests_path(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    skills_dir = str(repl_world.synapse_home / "skills")
    assert skills_dir in output, f"the output should tell where to create skills ({skills_dir}):\n{output}"
    assert "Unknown command" not in output, "/skills is a command of the spec, not an unknown one"


@given("技能目录存在但 `SKILL.md` 无法提取 description")
def repl_skills_without_description(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["skill", "SKILL.md"], f"unexpected table header {header}"
    for name, content in rows:
        skill_dir = repl_world.synapse_home / "skills" / name
        skill_dir.mkdir(parents=True)
        (skill_dir / "SKILL.md").write_text(content, encoding="utf-8")
        repl_world.skills[name] = content


def _skill_block(output: str, name: str, others: Sequence[str]) -> str:
    """The part of the listing that belongs to skill ``name`` (up to the next skill's name)."""
    match = re.search(rf"(?m)^.*\b{re.escape(name)}\b.*$", output)
    assert match is not None, f"the listing should show the skill {name!r}:\n{output}"
    rest = output[match.end() :]
    ends = [m.start() for other in others if (m := re.search(rf"\b{re.escape(other)}\b", rest))]
    return rest[: min(ends)] if ends else rest


@then(parsers.parse("该技能描述应显示 `{placeholder}`"))
def repl_default_description(repl_world: ReplWorld, placeholder: str) -> None:
    output = repl_world.output()
    assert "Unknown command" not in output, "/skills is a command of the spec, not an unknown one"
    bare = [n for n, content in repl_world.skills.items() if "description" not in content.lower()]
    assert bare, "setting up: one skill should have no description"
    for name in bare:
        block = _skill_block(output, name, [n for n in repl_world.skills if n != name])
        assert placeholder in block, (
            f"the skill {name!r} without description should show {placeholder!r}:\n{output}"
        )
    assert output.count(placeholder) == len(bare), f"only skills without description show {placeholder!r}"


@then(parsers.parse("有描述的技能 `{name}` 应显示其描述 `{description}`"))
def repl_described_skill(repl_world: ReplWorld, name: str, description: str) -> None:
    output = repl_world.output()
    block = _skill_block(output, name, [n for n in repl_world.skills if n != name])
    assert description in block, f"the skill {name!r} should show its description {description!r}:\n{output}"


# --------------------------------------------------------------------------------------------------------
# /tools
# --------------------------------------------------------------------------------------------------------


@given("`McpInstaller.formatSearchResult` 输出首行包含 `Found N tools`")
def repl_tool_listing(repl_world: ReplWorld, docstring: str) -> None:
    assert re.match(r"Found \d+ tools?", docstring), (
        "setting up: the listing should start with 'Found N tools'"
    )
    repl_world.listing = docstring
    catalog = repl_world.mocker.NonCallableMagicMock(name="ToolCatalog")
    catalog.format_search_result = repl_world.mocker.Mock(return_value=docstring)
    repl_world.catalog = catalog


@then("显示内容应移除该头部行")
def repl_header_removed(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    assert repl_world.catalog.format_search_result.call_count == 1, "/tools should ask the tool source once"
    header = [line for line in output.splitlines() if re.match(r"\s*Found \d+ tools?", line)]
    assert not header, f"the 'Found N tools' line should be removed, found {header}:\n{output}"


@then("保留工具主体列表")
def repl_tool_body_kept(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    body = [line.strip() for line in repl_world.listing.splitlines()[1:] if line.strip()]
    shown = [line.strip() for line in output.splitlines()]
    position = 0
    for line in body:
        assert line in shown[position:], f"the tool list should keep {line!r} (in order):\n{output}"
        position = shown.index(line, position) + 1


# --------------------------------------------------------------------------------------------------------
# /compact
# --------------------------------------------------------------------------------------------------------


@given("`agentRunner=null`")
def repl_no_runner(repl_world: ReplWorld) -> None:
    repl_world.runner = None


@given("`forceCompact()` 抛出异常")
def repl_compact_raises(repl_world: ReplWorld) -> None:
    async def failing() -> _CompactResult:
        raise RuntimeError(repl_world.error_message)

    repl_world.runner_double(failing)


@given(parsers.parse('异常 message 为 "{message}"'))
def repl_exception_message(repl_world: ReplWorld, message: str) -> None:
    repl_world.error_message = message


@then("输出应包含异常 message")
def repl_output_has_exception(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    assert repl_world.error_message in output, (
        f"the output should carry the error {repl_world.error_message!r}"
    )


def _resolved_runner(world: ReplWorld, result: _CompactResult) -> None:
    world.compact_result = result

    async def compact() -> _CompactResult:
        return result

    world.runner_double(compact)


@given("`forceCompact()` 返回 `success=true` 且释放了 token")
def repl_compact_succeeds(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    row = dict(zip(datatable[0], datatable[1], strict=True))
    deleted = [f"/tmp/offloaded/file-{i}.txt" for i in range(int(row["deletedFiles"]))]
    result = _CompactResult(
        int(row["previousTokens"]), int(row["currentTokens"]), int(row["freedTokens"]), deleted, True, 5
    )
    assert result.freed_tokens > 0, "setting up: the compaction should free tokens"
    _resolved_runner(repl_world, result)


def _compacted(world: ReplWorld) -> _CompactResult:
    assert world.compact_result is not None
    return world.compact_result


@then("输出应包含 `before -> after` token 数值")
def repl_before_after(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    result = _compacted(repl_world)
    pattern = _before_after(result.previous_tokens, result.current_tokens)
    assert pattern.search(output), (
        f"the output should show {result.previous_tokens} -> {result.current_tokens} (-> or →):\n{output}"
    )
    assert repl_world.runner.force_compact.await_count == 1, "/compact should compact exactly once"


@then("输出应包含释放量与删除文件数量")
def repl_freed_and_deleted(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    result = _compacted(repl_world)
    rest = _before_after(result.previous_tokens, result.current_tokens).sub(" ", output)
    freed = re.compile(rf"(?<![\d,]){_figure(result.freed_tokens)}(?![\d,])")
    assert freed.search(rest), f"the output should show the {result.freed_tokens} freed tokens:\n{output}"
    rest = freed.sub(" ", rest)
    count = len(result.deleted_files)
    assert re.search(rf"(?<![\d,.]){count}(?![\d,.])", rest), (
        f"the output should show that {count} offloaded files were deleted:\n{output}"
    )


@given("`forceCompact()` 返回 `success=false`")
def repl_compact_fails(repl_world: ReplWorld) -> None:
    # Nothing freed either: the failure must win over the "nothing to compact" reading.
    _resolved_runner(repl_world, _CompactResult(50_000, 50_000, 0, [], False, 0))


@then("输出应包含“压缩失败，保持原历史不变”语义")
def repl_failure_keeps_history(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    lowered = output.lower()
    failed = "压缩失败" in output or re.search(r"compact\w* failed|fail", lowered)
    kept = re.search(r"保持原历史|原历史不变|历史不变", output) or re.search(
        r"history (?:is |was )?(?:unchanged|kept|preserved|left unchanged)", lowered
    )
    assert failed, f"the output should say the compaction failed:\n{output}"
    assert kept, f"the output should say the history was kept as it was:\n{output}"


@then("不应误报成功")
def repl_no_false_success(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    claims = [w for w in ("✅", "压缩完成", "无需压缩", "释放") if w in output]
    claims += [w for w in ("success", "completed", "freed", "no compaction needed") if w in output.lower()]
    assert not claims, f"a failed compaction must not be reported as a success ({claims}):\n{output}"


@given("`forceCompact()` 返回 `freedTokens=0` 且前后 token 相同")
def repl_compact_noop(repl_world: ReplWorld) -> None:
    _resolved_runner(repl_world, _CompactResult(3_000, 3_000, 0, [], True, 3))


@then("输出应包含“无需压缩”提示")
def repl_noop_hint(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    hint = "无需压缩" in output or re.search(
        r"no compaction (?:is )?needed|nothing to compact", output.lower()
    )
    assert hint, f"the output should say there was nothing to compact:\n{output}"
    assert "失败" not in output and "fail" not in output.lower(), f"a no-op is not a failure:\n{output}"


@then("命令处理结果仍应为已处理")
def repl_still_handled(repl_world: ReplWorld) -> None:
    repl_world.output()
    assert repl_world.runner.force_compact.await_count == 1, "/compact should compact exactly once"


@given("`forceCompact()` 返回一个延迟 resolve 的 Promise")
def repl_compact_delayed(repl_world: ReplWorld) -> None:
    loop = asyncio.new_event_loop()
    future: asyncio.Future[_CompactResult] = loop.create_future()
    repl_world.loop, repl_world.future = loop, future

    async def slow() -> _CompactResult:
        return await future

    repl_world.runner_double(slow)


@then("命令处理 Promise 在压缩完成前不应提前 resolve")
def repl_waits_for_compaction(repl_world: ReplWorld) -> None:
    task = repl_world.task
    assert task is not None, "the command should have been started"
    assert repl_world.runner.force_compact.await_count == 1, "/compact should have started the compaction"
    if task.done():
        raise AssertionError(f"/compact returned before the compaction finished: {task.result()!r}")


@then("resolve 后应输出最终压缩结果信息")
def repl_output_after_resolve(repl_world: ReplWorld) -> None:
    assert repl_world.loop is not None and repl_world.future is not None and repl_world.task is not None
    result = _CompactResult(80_000, 20_000, 60_000, [], True, 5)
    repl_world.compact_result = result
    repl_world.future.set_result(result)
    repl_world.outcome = repl_world.loop.run_until_complete(repl_world.task)
    output = repl_world.output()
    assert _before_after(80_000, 20_000).search(output), (
        f"the final result should show 80,000 -> 20,000:\n{output}"
    )
    assert re.search(rf"(?<![\d,]){_figure(60_000)}(?![\d,])", output), f"the 60,000 freed tokens:\n{output}"


# --------------------------------------------------------------------------------------------------------
# formatStreamText
# --------------------------------------------------------------------------------------------------------


@given(parsers.re(r"^`process\.stdout\.isTTY=(?P<tty>true|false)` 且输出(?P<kind>包含|不含).*$"))
def repl_stream_text(repl_world: ReplWorld, tty: str, kind: str) -> None:
    repl_world.is_tty = tty == "true"
    if kind == "包含":
        repl_world.text = f"\n{SKILL_ENHANCE_PROGRESS_TEXT}\n"
    else:
        repl_world.text = "\nAnalyzing the repository layout...\n"


@when("调用 `formatStreamText(text)`")
def repl_format_stream_text(repl_world: ReplWorld) -> None:
    repl_world.formatted = repl_world.synapse.format_stream_text(repl_world.text, is_tty=repl_world.is_tty)


def _formatted(world: ReplWorld) -> str:
    assert isinstance(world.formatted, str), f"formatStreamText should return text, got {world.formatted!r}"
    return world.formatted


@then("返回值应包含高亮 ANSI 前缀/后缀")
def repl_highlighted(repl_world: ReplWorld) -> None:
    formatted = _formatted(repl_world)
    prefix = re.match(r"(?:\x1b\[([0-9;]*)m)+", formatted)
    assert prefix is not None, f"the text should start with an ANSI highlight sequence: {formatted!r}"
    codes = [c for seq in re.findall(r"\x1b\[([0-9;]*)m", prefix.group(0)) for c in seq.split(";") if c]
    assert any(c != "0" for c in codes), (
        f"the prefix should set a style, not only reset it: {prefix.group(0)!r}"
    )
    assert re.search(r"\x1b\[0?m$", formatted), f"the text should end by resetting the style: {formatted!r}"


@then("文本内容保持不变")
def repl_text_unchanged(repl_world: ReplWorld) -> None:
    formatted = _formatted(repl_world)
    assert ANSI_SGR.sub("", formatted) == repl_world.text, f"only colour codes may be added: {formatted!r}"


@then("返回应等于原始文本（不加颜色控制符）")
def repl_plain_text(repl_world: ReplWorld) -> None:
    formatted = _formatted(repl_world)
    assert formatted == repl_world.text, f"the text should come back unchanged, got {formatted!r}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: dispatching, /cost, /clear, /skills and /tools line by line
# --------------------------------------------------------------------------------------------------------


@when(parsers.re(r'^用户输入 "(?P<line>.*)"$'))
def repl_type_line(repl_world: ReplWorld, line: str) -> None:
    # A table cell keeps surrounding blanks only inside quotes: "  /EXIT ".
    if len(line) >= 2 and line[0] == line[-1] == '"':
        line = line[1:-1]
    try:
        repl_world.outcome = run(repl_world.commands().handle(line))
    except Exception as error:
        repl_world.error = error


@then("该输入不应被当作命令处理")
def repl_not_a_command(repl_world: ReplWorld) -> None:
    if repl_world.error is not None:
        raise AssertionError(f"handle() should not raise, it raised {repl_world.error!r}")
    outcome = repl_world.outcome
    assert outcome is not None, "handle() returned nothing"
    assert outcome.handled is False, f"input that is not a slash command goes to the model, got {outcome!r}"
    assert outcome.exit is False, f"input for the model must not end the REPL, got {outcome!r}"


@then(parsers.re(r"^命令应被处理且(?P<ends>应|不应)结束 REPL$"))
def repl_handled_and_exit(repl_world: ReplWorld, ends: str) -> None:
    repl_world.output()
    assert repl_world.outcome is not None
    expected = ends == "应"
    assert repl_world.outcome.exit is expected, (
        f"exit should be {expected} for this command, got {repl_world.outcome!r}"
    )


@then("帮助应列出这些命令:")
def repl_help_lists(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    output = repl_world.output()
    for (command,) in datatable[1:]:
        assert re.search(rf"(?<![\w:/]){re.escape(command)}(?![\w:])", output), (
            f"the help should list {command}:\n{output}"
        )


def _lines(text: str) -> list[str]:
    """The lines of a command's output without trailing blanks and without blank lines around them."""
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _expected_lines(world: ReplWorld, docstring: str) -> list[str]:
    return docstring.replace("<skills-dir>", str(world.synapse_home / "skills")).split("\n")


@then("输出应逐行为:")
def repl_output_lines(repl_world: ReplWorld, docstring: str) -> None:
    output = repl_world.output()
    expected = _expected_lines(repl_world, docstring)
    assert _lines(output) == expected, f"the output should be exactly {expected}, got {_lines(output)}"


@then("输出应以这些行开头:")
def repl_output_starts(repl_world: ReplWorld, docstring: str) -> None:
    output = repl_world.output()
    expected = _expected_lines(repl_world, docstring)
    assert _lines(output)[: len(expected)] == expected, (
        f"the output should start with {expected}, got {_lines(output)}"
    )


@given("runner 的会话用量为:")
def repl_usage(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    row = dict(zip(datatable[0], datatable[1], strict=True))
    usage: dict[str, Any] = {key: int(value) for key, value in row.items() if key != "totalCost"}
    usage.update(
        model="claude-sonnet-4-20250514",
        rounds=[{"inputOther": 1545, "output": 3456, "inputCacheRead": 9600, "inputCacheCreation": 1200}],
        totalCost=float(row["totalCost"]),
    )
    runner = repl_world.mocker.NonCallableMagicMock(name="AgentRunner")
    runner.get_session_usage = repl_world.mocker.Mock(return_value=usage)
    repl_world.runner = runner


@given(parsers.parse("runner 的会话用量是 JSON 记录 `{record}`"))
def repl_usage_record(repl_world: ReplWorld, record: str) -> None:
    usage = json.loads(record)
    assert isinstance(usage, dict), f"the usage record should be a JSON object, got {record!r}"
    runner = repl_world.mocker.NonCallableMagicMock(name="AgentRunner")
    runner.get_session_usage = repl_world.mocker.Mock(return_value=usage)
    repl_world.runner = runner


@given("runner 没有会话")
def repl_runner_without_session(repl_world: ReplWorld) -> None:
    runner = repl_world.mocker.NonCallableMagicMock(name="AgentRunner")
    runner.get_session_usage = repl_world.mocker.Mock(return_value=None)
    repl_world.runner = runner


@given("runner 只提供 `forceCompact()`")
def repl_compacting_runner_only(repl_world: ReplWorld) -> None:
    async def compact() -> _CompactResult:
        raise AssertionError("this scenario does not compact")

    runner = repl_world.mocker.NonCallableMagicMock(name="CompactingRunner", spec=["force_compact"])
    runner.force_compact = repl_world.mocker.AsyncMock(side_effect=compact)
    repl_world.runner = runner


@given("runner 可以清空会话")
def repl_clearable_runner(repl_world: ReplWorld) -> None:
    runner = repl_world.mocker.NonCallableMagicMock(name="AgentRunner")
    runner.clear_session = repl_world.mocker.Mock(return_value=None)
    repl_world.runner = runner


@given(parsers.parse('runner 清空会话时抛出 message 为 "{message}" 的错误'))
def repl_failing_clear_runner(repl_world: ReplWorld, message: str) -> None:
    runner = repl_world.mocker.NonCallableMagicMock(name="AgentRunner")
    runner.clear_session = repl_world.mocker.Mock(side_effect=OSError(message))
    repl_world.runner = runner


@then(parsers.parse("runner 的会话应被清空 {count:d} 次"))
def repl_cleared(repl_world: ReplWorld, count: int) -> None:
    repl_world.output()
    calls = repl_world.runner.clear_session.call_count
    assert calls == count, f"/clear should clear the session {count} time(s), cleared {calls}"


@then("输出应确认会话已清空")
def repl_clear_confirmed(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    assert re.search(r"clear|清空|清除", output, re.IGNORECASE), f"/clear should confirm it:\n{output}"
    assert "unavailable" not in output.lower() and "不可用" not in output, f"/clear worked:\n{output}"


def _says_unavailable(output: str, what: str) -> None:
    assert re.search(r"unavailable|not available|不可用", output, re.IGNORECASE), (
        f"the output should say {what} is unavailable:\n{output}"
    )


@then("输出应说明 `/clear` 不可用")
def repl_clear_unavailable(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    _says_unavailable(output, "/clear")
    assert "Unknown command" not in output, f"/clear is a command of the spec:\n{output}"


@given("技能目录中有:")
def repl_skill_files(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    _write_skill_files(repl_world, datatable, "\n")


@given("技能目录中有以 CRLF 换行的文件:")
def repl_skill_files_crlf(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    _write_skill_files(repl_world, datatable, "\r\n")


@given("技能目录中有这些文件，路径中的 %XX 是一个字节:")
def repl_skill_files_bytes(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    _write_skill_files(repl_world, datatable, "\n", path_bytes=True)


def _write_skill_files(
    repl_world: ReplWorld, datatable: list[list[str]], newline: str, *, path_bytes: bool = False
) -> None:
    header, *rows = datatable
    assert header == ["path", "content"], f"unexpected table header {header}"
    for relative, content in rows:
        name = os.fsdecode(unquote_to_bytes(relative)) if path_bytes else relative
        path = repl_world.synapse_home / "skills" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.replace("\n", newline).encode("utf-8"))


@given("`SYNAPSE_HOME` 指向另一个目录，其技能目录中有:")
def repl_synapse_home_elsewhere(
    repl_world: ReplWorld, monkeypatch: pytest.MonkeyPatch, datatable: list[list[str]]
) -> None:
    other = repl_world.synapse_home.parent / "exported-synapse"
    header, *rows = datatable
    assert header == ["path", "content"], f"unexpected table header {header}"
    for relative, content in rows:
        path = other / "skills" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    monkeypatch.setenv("SYNAPSE_HOME", str(other))
    assert other != repl_world.synapse_home and repl_world.inject_home


@given("未向 REPL 注入 Synapse 主目录")
def repl_home_not_injected(repl_world: ReplWorld) -> None:
    repl_world.inject_home = False


@given("`SYNAPSE_HOME` 为空字符串，`HOME` 指向场景目录")
def repl_synapse_home_empty(repl_world: ReplWorld, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_HOME", "")
    assert Path(os.environ["HOME"]) / ".synapse" == repl_world.synapse_home


@when("无法再打开文件时执行 `/skills`")
def repl_skills_without_file_descriptors(synapse: contract.Implementation, repl_world: ReplWorld) -> None:
    commands = repl_world.commands()
    loop = asyncio.new_event_loop()
    try:
        # Every descriptor of the implementation's process from its lowest free one up is refused:
        # listing the directory fails (EMFILE).
        with probes.resource_limit(synapse, probes.RLIMIT_NOFILE, probes.lowest_free_descriptor(synapse)):
            repl_world.outcome = loop.run_until_complete(commands.handle("/skills"))
    except Exception as error:
        repl_world.error = error
    finally:
        loop.close()


@then(parsers.parse("输出应有一行以 `{prefix}` 开头"))
def repl_output_line_starts(repl_world: ReplWorld, prefix: str) -> None:
    output = repl_world.output()
    assert any(line.startswith(prefix) for line in output.split("\n")), (
        f"a line should start with {prefix!r}:\n{output}"
    )


@given("没有工具来源")
def repl_no_catalog(repl_world: ReplWorld) -> None:
    repl_world.catalog = None


@then("输出应说明工具列表不可用")
def repl_tools_unavailable(repl_world: ReplWorld) -> None:
    output = repl_world.output()
    _says_unavailable(output, "the tool listing")


@given(parsers.parse("`forceCompact()` 抛出没有 message 的 `{name}`"))
def repl_compact_raises_bare(repl_world: ReplWorld, name: str) -> None:
    error_type = {"TimeoutError": TimeoutError}[name]

    async def failing() -> _CompactResult:
        raise error_type()

    repl_world.runner_double(failing)


@given("`forceCompact()` 返回 `success=true`，释放的 token 为负数")
def repl_compact_negative(repl_world: ReplWorld, datatable: list[list[str]]) -> None:
    row = dict(zip(datatable[0], datatable[1], strict=True))
    result = _CompactResult(int(row["previousTokens"]), int(row["currentTokens"]), int(row["freedTokens"]))
    assert result.freed_tokens < 0, "setting up: the summary should be longer than what it replaced"
    _resolved_runner(repl_world, result)


@given(parsers.parse('技能 "{name}" 的 SKILL.md 含无效 UTF-8 字节'))
def repl_skill_with_bad_bytes(repl_world: ReplWorld, name: str) -> None:
    skill_dir = repl_world.synapse_home / "skills" / name
    skill_dir.mkdir(parents=True)
    # Latin-1 "é" on its own is not valid UTF-8; a reader shows the replacement character instead.
    (skill_dir / "SKILL.md").write_bytes(
        b"---\nname: " + name.encode() + b"\ndescription: Caf\xe9 helper\n---\n"
    )


@given(parsers.parse('`process.stdout.isTTY={tty}`，流式输出的一段文本为 "{text}"'))
def repl_stream_chunk(repl_world: ReplWorld, tty: str, text: str) -> None:
    """``\\n`` in the text stands for a line break: a chunk may carry other text around the progress text."""
    repl_world.is_tty = tty == "true"
    repl_world.text = text.replace("\\n", "\n")
