"""Step definitions for the ConversationReader features (seed 003 and its beyond-seed fixes).

Turns are always produced by the implementation's own ``read``/``read_truncated`` from a real JSONL file in
``tmp_path``, so ``compact``/``summarize`` are exercised on turns the implementation built itself.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from synapse_spec import cells, contract, probes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sessions"
LABELS = ("[User]", "[Assistant]", "[Tool]", "[Result]")
ELLIPSIS = "..."


@dataclass
class ReaderContext:
    """What one scenario has set up and observed."""

    synapse: contract.Implementation
    tmp_path: Path
    caplog: pytest.LogCaptureFixture
    path: Path | None = None
    lines: list[str] = field(default_factory=list)
    trailing_newline: bool = True
    max_chars: int | None = None
    method: str = "read"
    cut_line: int | None = None
    expected_ids: list[str] = field(default_factory=list)
    turns: Sequence[contract.ConversationTurn] | None = None
    error: BaseException | None = None
    warnings: list[logging.LogRecord] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)
    expected_rows: list[dict[str, str]] = field(default_factory=list)
    text: str | None = None
    limit: int | None = None
    tool_result: str | None = None
    tool_result_lines: list[str] = field(default_factory=list)
    full_text: str | None = None
    sequence: list[str] | None = None
    summary: contract.ConversationSummary | None = None
    settings: list[str] = field(default_factory=list)
    default_chars_per_token: int | None = None
    estimates: dict[str | None, int] = field(default_factory=dict)
    bytes_read: int | None = None
    bytes_measure: str = ""
    invalid_lines: int = 0
    expected_estimates: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    warnings_failures: list[str] = field(default_factory=list)
    built: contract.ConversationReader | None = None
    tail_first_line: int = 0

    @property
    def reader(self) -> contract.ConversationReader:
        """Built on first use, after the Given steps set the scenario's settings (so an implementation
        that reads settings when it builds a component sees them); ``@live-settings`` scenarios build it
        at the start, before any setting changes."""
        if self.built is None:
            self.built = self.synapse.conversation_reader()
        return self.built

    def call(self, action: Callable[[], Any]) -> Any:
        """Run one reader call, keeping its exception and the warnings it logged for the Then steps."""
        start = len(self.caplog.records)
        try:
            return action()
        except Exception as exc:
            self.error = exc
            return None
        finally:
            self.warnings = probes.implementation_records(
                self.caplog.records[start:], logging.WARNING, or_above=True
            )

    def result_turns(self, what: str) -> list[contract.ConversationTurn]:
        assert self.error is None, f"{what} raised {self.error!r}; it must return turns instead"
        assert self.turns is not None, f"{what} returned None instead of a sequence of turns"
        return list(self.turns)

    def write(self) -> Path:
        """(Re)write the scenario's session file from ``lines``."""
        self.path = self.path or self.tmp_path / "session.jsonl"
        text = "\n".join(self.lines) + ("\n" if self.trailing_newline else "")
        self.path.write_text(text, encoding="utf-8")
        return self.path

    def file_text(self) -> str:
        assert self.path is not None
        return self.path.read_text(encoding="utf-8")


@pytest.fixture
def reader_ctx(
    synapse: contract.Implementation,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
) -> ReaderContext:
    caplog.set_level(logging.WARNING)
    context = ReaderContext(synapse=synapse, tmp_path=tmp_path, caplog=caplog)
    if request.node.get_closest_marker("live-settings") is not None:
        assert context.reader is not None  # the settings change on a reader that already exists
    return context


def _docstring_lines(docstring: str) -> list[str]:
    return [line for line in docstring.strip("\n").split("\n") if line.strip()]


def _line_id(line: str) -> str:
    data = json.loads(line)
    assert isinstance(data, dict) and isinstance(data.get("id"), str), f"test data line without an id: {line}"
    return str(data["id"])


def _read_turns(ctx: ReaderContext) -> list[contract.ConversationTurn]:
    """Turns for compact/summarize scenarios, built by the implementation from the scenario's file."""
    path = ctx.write() if ctx.lines else ctx.path
    assert path is not None
    ctx.turns = ctx.call(lambda: ctx.reader.read(str(path)))
    return ctx.result_turns(f"read({path.name})")


def _copy_fixture(ctx: ReaderContext, name: str) -> Path:
    source = FIXTURES / name
    assert source.is_file(), f"missing spec fixture {source}"
    ctx.path = ctx.tmp_path / name
    shutil.copyfile(source, ctx.path)
    return ctx.path


def _tool_result_session(result: str) -> list[str]:
    return [
        json.dumps({"id": "r1", "role": "user", "content": "Run the report"}),
        json.dumps(
            {
                "id": "r2",
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "tool-1", "name": "report", "input": {}}],
            }
        ),
        json.dumps(
            {
                "id": "r3",
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "tool-1", "content": result}],
            },
            ensure_ascii=False,
        ),
    ]


def _result_block(ctx: ReaderContext) -> str:
    """The text after ``[Result]`` in the compact output (the scenario has exactly one tool result)."""
    assert ctx.error is None, f"compact raised {ctx.error!r}"
    assert ctx.text is not None, "compact returned None instead of text"
    blocks = [b for b in ctx.text.split("\n\n") if b.startswith("[Result]")]
    assert len(blocks) == 1, f"compact output must hold exactly one [Result] block, got {ctx.text!r}"
    body = blocks[0][len("[Result]") :]
    return body[1:] if body.startswith(" ") else body


# --------------------------------------------------------------------------------------------------------
# Files: missing, valid, truncated, corrupt
# --------------------------------------------------------------------------------------------------------


@given("输入的会话 JSONL 路径不存在")
def reader_missing_path(reader_ctx: ReaderContext) -> None:
    reader_ctx.path = reader_ctx.tmp_path / "no-such-dir" / "session-missing.jsonl"
    assert not reader_ctx.path.exists()


@given(parsers.parse("会话文件取自样例 `{name}`"))
def reader_fixture_file(reader_ctx: ReaderContext, name: str) -> None:
    _copy_fixture(reader_ctx, name)


@when("调用 `ConversationReader.read(filePath)`")
def reader_call_read(reader_ctx: ReaderContext) -> None:
    path = reader_ctx.path
    assert path is not None
    reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read(str(path)))


@then("返回应为 `[]`")
def reader_returns_empty(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("the reader call")
    assert turns == [], f"expected no turns, got {len(turns)}: {[t.id for t in turns]}"


@then("调用方无需处理异常")
def reader_no_exception(reader_ctx: ReaderContext) -> None:
    assert reader_ctx.error is None, (
        f"read(missing file) raised {reader_ctx.error!r}; a missing session file must give [] without an "
        "exception"
    )


@then("应记录一条 warning 日志指出该路径不存在")
def reader_warned_missing(reader_ctx: ReaderContext) -> None:
    assert reader_ctx.path is not None
    names = (str(reader_ctx.path), reader_ctx.path.name)
    mentioning = [r for r in reader_ctx.warnings if any(n in probes.logged_text(r) for n in names)]
    assert mentioning, (
        "reading a missing session file must log a WARNING on a 'synapse.*' logger naming the path; got "
        f"{[(r.name, r.getMessage()) for r in reader_ctx.warnings]}"
    )


@given(parsers.parse("合法会话文件存在但 `maxChars={max_chars:d}`"))
def reader_valid_file_with_max(reader_ctx: ReaderContext, max_chars: int) -> None:
    path = _copy_fixture(reader_ctx, "anthropic_sample.jsonl")
    lines = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    assert lines and all(isinstance(json.loads(line), dict) for line in lines)
    reader_ctx.max_chars = max_chars


@when(parsers.parse("调用 `readTruncated(filePath, {max_chars:d})`"))
def reader_call_truncated_literal(
    reader_ctx: ReaderContext, synapse: contract.Implementation, max_chars: int
) -> None:
    assert max_chars == reader_ctx.max_chars
    path = reader_ctx.path
    assert path is not None
    with probes.watch_files([path]) as watch:
        reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read_truncated(str(path), max_chars))
    reader_ctx.opened = [f"{event} {path.name}" for event in watch.touched(path)]


@then("不应执行后续截断解析逻辑")
def reader_not_parsed(reader_ctx: ReaderContext) -> None:
    assert not reader_ctx.opened, (
        f"readTruncated(filePath, {reader_ctx.max_chars}) opened the session file "
        f"({', '.join(reader_ctx.opened)}); "
        "with maxChars<=0 it must return [] without reading or parsing the file"
    )
    assert not reader_ctx.warnings, (
        f"readTruncated(filePath, {reader_ctx.max_chars}) logged "
        f"{[r.getMessage() for r in reader_ctx.warnings]}; "
        "with maxChars<=0 nothing may be parsed"
    )


@given("原文件长度超过 `maxChars` 且截断点位于行中间")
def reader_file_for_cut(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    reader_ctx.write()


@given("原文件长度超过 `maxChars` 且截断点恰好位于行首")
def reader_file_for_cut_at_start(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    reader_ctx.write()


@given("文件末尾没有换行符")
def reader_no_trailing_newline(reader_ctx: ReaderContext) -> None:
    reader_ctx.trailing_newline = False
    reader_ctx.write()
    assert not reader_ctx.file_text().endswith("\n")


def _cut_at(reader_ctx: ReaderContext, line_number: int, offset_in_line: int) -> int:
    """Choose ``maxChars`` so that the window starts ``offset_in_line`` characters into the line."""
    lines = reader_ctx.lines
    assert 1 <= line_number <= len(lines), f"the file has no line {line_number}"
    text = reader_ctx.file_text()
    start_of_line = sum(len(line) + 1 for line in lines[: line_number - 1])
    cut = start_of_line + offset_in_line
    reader_ctx.max_chars = len(text) - cut
    assert len(text) > reader_ctx.max_chars > 0, "the file must be longer than maxChars"
    reader_ctx.cut_line = line_number
    first_complete = line_number if offset_in_line == 0 else line_number + 1
    reader_ctx.expected_ids = [_line_id(line) for line in lines[first_complete - 1 :]]
    return cut


@given(parsers.parse("截断点落在第 {line_number:d} 行的正中间"))
def reader_cut_mid_line(reader_ctx: ReaderContext, line_number: int) -> None:
    line = reader_ctx.lines[line_number - 1]
    cut = _cut_at(reader_ctx, line_number, len(line) // 2)
    assert reader_ctx.file_text()[cut - 1] != "\n", "the cut must fall inside a line"


@given(parsers.parse("截断点落在第 {line_number:d} 行的行首"))
def reader_cut_line_start(reader_ctx: ReaderContext, line_number: int) -> None:
    cut = _cut_at(reader_ctx, line_number, 0)
    assert reader_ctx.file_text()[cut - 1] == "\n", "the cut must fall right after a newline"


@when("执行 `readTruncated`")
def reader_call_truncated(reader_ctx: ReaderContext) -> None:
    path, max_chars = reader_ctx.path, reader_ctx.max_chars
    assert path is not None and max_chars is not None
    reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read_truncated(str(path), max_chars))


@then("结果首行应从下一个完整换行开始")
def reader_first_complete_line(reader_ctx: ReaderContext) -> None:
    what = f"readTruncated(filePath, {reader_ctx.max_chars})"
    ids = [t.id for t in reader_ctx.result_turns(what)]
    expected = reader_ctx.expected_ids
    first = repr(expected[0]) if expected else "none: the window holds no complete line"
    assert ids[:1] == expected[:1], (
        f"{what} starts its window inside line {reader_ctx.cut_line}; the first turn must come from the "
        f"first complete line of the window ({first}), got turn ids {ids}"
    )
    assert ids == expected, (
        f"{what} must return every complete line of the window in order: {expected}, got {ids}"
    )


@then("不应出现半截 JSON 行")
def reader_no_half_line(reader_ctx: ReaderContext) -> None:
    what = f"readTruncated(filePath, {reader_ctx.max_chars})"
    by_id = {_line_id(line): json.loads(line) for line in reader_ctx.lines}
    for turn in reader_ctx.result_turns(what):
        assert turn.id in by_id, f"{what} returned a turn {turn.id!r} that is not a complete line of the file"
        data = by_id[turn.id]
        assert turn.role == data["role"], (
            f"{what}: turn {turn.id} has role {turn.role!r}, the line says {data['role']!r}"
        )
        if isinstance(data["content"], str):
            assert turn.content == data["content"], (
                f"{what}: turn {turn.id} content {turn.content!r} is not the full line's {data['content']!r}"
            )
    assert not reader_ctx.warnings, (
        f"{what} parsed a half JSON line: it logged {[r.getMessage() for r in reader_ctx.warnings]} "
        "although every "
        "complete line of the window is valid; the partial line before the first newline must be dropped "
        "unparsed"
    )


@given("文件中混合合法行与非法 JSON 行")
def reader_corrupt_file(reader_ctx: ReaderContext) -> None:
    path = _copy_fixture(reader_ctx, "corrupt_lines.jsonl")
    valid = invalid = 0
    for raw in path.read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError:
            invalid += 1
            continue
        if isinstance(data, dict):
            valid += 1
        else:
            invalid += 1
    assert valid >= 2 and invalid >= 2, "the corrupt-lines fixture must mix valid and invalid lines"
    reader_ctx.invalid_lines = invalid


READ_CALL = r"(?P<call>read\(filePath\)|readTruncated\(filePath, (?P<max_chars>\d+)\))"


@given(parsers.re(rf"本例以 `{READ_CALL}` 读取"))
def reader_choose_method(reader_ctx: ReaderContext, call: str, max_chars: str | None) -> None:
    if max_chars is None:
        reader_ctx.method = "read"
    else:
        reader_ctx.method, reader_ctx.max_chars = "read_truncated", int(max_chars)
        assert reader_ctx.path is not None
        assert reader_ctx.max_chars >= len(reader_ctx.path.read_bytes()), (
            "the window must cover the whole file"
        )


@when("调用 `read` 或 `readTruncated`")
def reader_call_read_or_truncated(reader_ctx: ReaderContext) -> None:
    path, max_chars = reader_ctx.path, reader_ctx.max_chars
    assert path is not None
    if reader_ctx.method == "read":
        reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read(str(path)))
    else:
        assert max_chars is not None
        reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read_truncated(str(path), max_chars))


@then("非法行应被忽略")
def reader_bad_lines_ignored(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    reader_ctx.expected_rows = [dict(zip(header, row, strict=True)) for row in rows]
    what = f"{reader_ctx.method} of a file with corrupt lines"
    ids = [t.id for t in reader_ctx.result_turns(what)]
    expected = [row["id"] for row in reader_ctx.expected_rows]
    assert ids == expected, (
        f"{what} must skip every invalid line and keep reading after it: expected turns {expected}, got {ids}"
    )


@then("合法行仍应转换为 ConversationTurn")
def reader_valid_lines_converted(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns(reader_ctx.method)
    for turn, row in zip(turns, reader_ctx.expected_rows, strict=True):
        assert (turn.role, turn.content) == (row["role"], row["content"]), (
            f"valid line {row['id']} must become a turn with role {row['role']!r} and content "
            f"{row['content']!r}, "
            f"got role {turn.role!r} and content {turn.content!r}"
        )


@then(parsers.parse('每个非法行都应记录一条包含 "{text}" 的 warning 日志'))
def reader_warned_each_bad_line(reader_ctx: ReaderContext, text: str) -> None:
    messages = [r.getMessage() for r in reader_ctx.warnings]
    matching = [m for m in messages if text in m]
    assert len(matching) == reader_ctx.invalid_lines == len(messages), (
        f"each of the {reader_ctx.invalid_lines} invalid lines must log one WARNING on a 'synapse.*' logger "
        f"containing {text!r} (and nothing else be logged); got {messages}"
    )


# --------------------------------------------------------------------------------------------------------
# Content blocks and roles
# --------------------------------------------------------------------------------------------------------


@given("某消息 `content` 字段是纯文本字符串")
def reader_string_content_line(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    assert len(reader_ctx.lines) == 1
    assert isinstance(json.loads(reader_ctx.lines[0])["content"], str)
    reader_ctx.write()


@given("单行消息 content 数组中同时包含 `text`、`tool_use`、`tool_result` 块")
def reader_block_content_line(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    assert len(reader_ctx.lines) == 1
    kinds = {block["type"] for block in json.loads(reader_ctx.lines[0])["content"]}
    assert {"text", "tool_use", "tool_result"} <= kinds
    reader_ctx.write()


@given("JSONL 行 role 既不是 `user` 也不是 `assistant`")
def reader_unknown_role_lines(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    roles = [json.loads(line).get("role") for line in reader_ctx.lines]
    assert any(role not in ("user", "assistant") for role in roles)
    reader_ctx.expected_ids = [
        _line_id(line)
        for line, role in zip(reader_ctx.lines, roles, strict=True)
        if role in ("user", "assistant")
    ]
    reader_ctx.write()


@when("解析该行")
@when("执行解析")
@when("解析会话文件")
def reader_parse_file(reader_ctx: ReaderContext) -> None:
    path = reader_ctx.path
    assert path is not None
    reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read(str(path)))


def _single_turn(reader_ctx: ReaderContext) -> tuple[contract.ConversationTurn, dict[str, Any]]:
    turns = reader_ctx.result_turns("read")
    data = json.loads(reader_ctx.lines[0])
    assert len(turns) == 1, f"one {data['role']} line must give exactly one turn, got {len(turns)}"
    turn = turns[0]
    assert (turn.id, turn.role) == (data["id"], data["role"]), (
        f"the turn must keep the line's id and role {(data['id'], data['role'])}, got {(turn.id, turn.role)}"
    )
    return turn, data


@then("turn.content 应等于原文本")
def reader_content_is_text(reader_ctx: ReaderContext) -> None:
    turn, data = _single_turn(reader_ctx)
    assert turn.content == data["content"], (
        f"turn.content must be the string unchanged: {data['content']!r}, got {turn.content!r}"
    )


@then("不应生成 toolCalls/toolResults")
def reader_no_tool_records(reader_ctx: ReaderContext) -> None:
    turn, _ = _single_turn(reader_ctx)
    assert not turn.tool_calls, f"a plain string message has no tool calls, got {turn.tool_calls!r}"
    assert not turn.tool_results, f"a plain string message has no tool results, got {turn.tool_results!r}"


@then("text 应汇总到 turn.content")
def reader_texts_joined(reader_ctx: ReaderContext) -> None:
    turn, data = _single_turn(reader_ctx)
    texts = [b["text"] for b in data["content"] if b["type"] == "text"]
    pattern = r"\s*".join(re.escape(t) for t in texts)
    assert re.fullmatch(pattern, turn.content), (
        f"turn.content must hold the text blocks {texts} in order (and nothing else), got {turn.content!r}"
    )


@then("tool_use/tool_result 应分别映射到 `toolCalls` 与 `toolResults`")
def reader_blocks_mapped(reader_ctx: ReaderContext) -> None:
    turn, data = _single_turn(reader_ctx)
    uses = [b for b in data["content"] if b["type"] == "tool_use"]
    results = [b for b in data["content"] if b["type"] == "tool_result"]
    calls = [(c.id, c.name, dict(c.input)) for c in turn.tool_calls or ()]
    assert calls == [(u["id"], u["name"], u["input"]) for u in uses], (
        f"each tool_use block must become a toolCall (id, name, input): expected "
        f"{[(u['id'], u['name'], u['input']) for u in uses]}, got {calls}"
    )
    got = [(r.tool_use_id, r.content) for r in turn.tool_results or ()]
    assert got == [(r["tool_use_id"], r["content"]) for r in results], (
        f"each tool_result block must become a toolResult (toolUseId, content): expected "
        f"{[(r['tool_use_id'], r['content']) for r in results]}, got {got}"
    )


@then("该行应被丢弃")
def reader_unknown_role_dropped(reader_ctx: ReaderContext) -> None:
    ids = [t.id for t in reader_ctx.result_turns("read")]
    assert ids == reader_ctx.expected_ids, (
        "lines whose role is not user/assistant must be dropped and the others kept: expected "
        f"{reader_ctx.expected_ids}, "
        f"got {ids}"
    )


@then("最终结果中不应出现未知角色 turn")
def reader_only_known_roles(reader_ctx: ReaderContext) -> None:
    roles = [t.role for t in reader_ctx.result_turns("read")]
    unknown = [r for r in roles if r not in ("user", "assistant")]
    assert not unknown, f"every turn must be a user or assistant turn, got roles {roles}"


# --------------------------------------------------------------------------------------------------------
# compact
# --------------------------------------------------------------------------------------------------------


@given("turns 中包含用户文本、助手文本、工具调用与工具结果")
@given("compact 全量文本超过 `maxChars`")
def reader_turns_from_lines(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    _read_turns(reader_ctx)


@when("调用 `compact(turns)`")
@when("执行 `compact()`")
@when("执行结果截断")
def reader_call_compact(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("read") if reader_ctx.turns is not None else _read_turns(reader_ctx)
    reader_ctx.text = reader_ctx.call(lambda: reader_ctx.reader.compact(turns))


@then("输出应保留上述标签顺序")
def reader_label_order(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    assert reader_ctx.error is None, f"compact raised {reader_ctx.error!r}"
    text = reader_ctx.text or ""
    _, *rows = datatable
    found = re.findall(r"^(\[(?:User|Assistant|Tool|Result)\])", text, flags=re.MULTILINE)
    assert found == [row[0] for row in rows], (
        "compact must emit one labelled block per text, tool call and tool result in turn order: expected "
        "labels "
        f"{[row[0] for row in rows]}, got {found} in {text!r}"
    )
    position = 0
    for label, body in rows:
        at = text.find(label, position)
        following = text[at + len(label) :].lstrip(" ")
        assert following.startswith(body), (
            f"{label} must be followed by {body!r}, got {following[: len(body) + 20]!r}"
        )
        position = at + len(label)


@then("各块之间应使用空行分隔")
def reader_blank_line_separated(reader_ctx: ReaderContext) -> None:
    text = reader_ctx.text or ""
    blocks = text.split("\n\n")
    labels = len(re.findall(r"^\[(?:User|Assistant|Tool|Result)\]", text, flags=re.MULTILINE))
    assert len(blocks) == labels and all(b.startswith(LABELS) for b in blocks), (
        f"blocks must be separated by exactly one blank line, each starting with its label; got {text!r}"
    )
    assert text == text.strip("\n"), f"the output must not start or end with blank lines: {text!r}"


@given(parsers.parse("工具结果内容长度超过 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 默认值"))
@given(parsers.parse("工具结果内容长度恰好等于 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 默认值"))
@given("工具结果为多行文本且超出限制")
def reader_default_limit(reader_ctx: ReaderContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT", raising=False)
    reader_ctx.limit = 200  # the original's default


@given(parsers.re(r'设置 `SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT` 为 "(?P<value>[^"]*)"'))
def reader_set_limit(reader_ctx: ReaderContext, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    value = cells.expand(value)
    monkeypatch.setenv("SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT", value)
    if value.isascii() and value.isdigit() and int(value) > 0:
        reader_ctx.limit = int(value)


@given(parsers.parse("工具结果是 {length:d} 个字符的单行文本"))
def reader_single_line_result(reader_ctx: ReaderContext, length: int) -> None:
    # Digits make every prefix distinguishable and contain no "." of their own.
    reader_ctx.tool_result = "".join(str(i % 10) for i in range(length))
    reader_ctx.lines = _tool_result_session(reader_ctx.tool_result)
    _read_turns(reader_ctx)


@given(parsers.parse("工具结果共 {count:d} 行，每行形如 `{example}`"))
def reader_multiline_result(reader_ctx: ReaderContext, count: int, example: str) -> None:
    reader_ctx.tool_result_lines = [f"line-{i:02d}-zzzzzzzzzz" for i in range(count)]
    assert len(reader_ctx.tool_result_lines[0]) == len(example)
    reader_ctx.tool_result = "\n".join(reader_ctx.tool_result_lines)
    assert reader_ctx.limit is not None and len(reader_ctx.tool_result) > reader_ctx.limit
    reader_ctx.lines = _tool_result_session(reader_ctx.tool_result)
    _read_turns(reader_ctx)


@given(parsers.parse("工具结果共 {count:d} 行，每行形如 `{example}` 且以 CRLF 结尾"))
def reader_multiline_crlf_result(reader_ctx: ReaderContext, count: int, example: str) -> None:
    """Each line ends in ``\\r\\n``, as a Windows command prints it: the ``\\r`` belongs to its line."""
    reader_ctx.tool_result_lines = [f"line-{i:02d}-zzzzzzzzzz\r" for i in range(count)]
    assert len(reader_ctx.tool_result_lines[0]) == len(example) + 1
    reader_ctx.tool_result = "\n".join(reader_ctx.tool_result_lines) + "\n"
    assert reader_ctx.limit is not None and len(reader_ctx.tool_result) > reader_ctx.limit
    reader_ctx.lines = _tool_result_session(reader_ctx.tool_result)
    _read_turns(reader_ctx)


@then("`[Result]` 内容应截断")
def reader_result_truncated(reader_ctx: ReaderContext) -> None:
    original, limit = reader_ctx.tool_result or "", reader_ctx.limit or 0
    assert len(original) > limit
    shown = _result_block(reader_ctx)
    assert shown != original and len(shown) <= limit, (
        f"a {len(original)}-char tool result exceeds the default summary limit {limit}: [Result] must be "
        "cut to at "
        f"most {limit} chars, got {len(shown)} chars"
    )


@then("末尾应追加 `...`")
def reader_result_ellipsis(reader_ctx: ReaderContext) -> None:
    original = reader_ctx.tool_result or ""
    shown = _result_block(reader_ctx)
    assert shown.endswith(ELLIPSIS), f"a truncated [Result] must end with '...', got ...{shown[-20:]!r}"
    kept = shown[: -len(ELLIPSIS)]
    assert kept and original.startswith(kept), (
        f"a truncated [Result] must keep the beginning of the result before '...', got {kept[:40]!r}..."
    )
    limit = reader_ctx.limit or 0
    assert len(shown) == limit, (
        f"a single-line result is cut to exactly the limit: {limit - len(ELLIPSIS)} chars and '...', got "
        f"{len(kept)} chars and '...'"
    )


@then("`[Result]` 内容应原样保留且不追加 `...`")
def reader_result_unchanged(reader_ctx: ReaderContext) -> None:
    original = reader_ctx.tool_result or ""
    shown = _result_block(reader_ctx)
    assert shown == original, (
        f"a tool result of exactly the limit ({len(original)} chars) must be shown unchanged, got "
        f"{len(shown)} chars "
        f"ending {shown[-10:]!r}"
    )


@then(parsers.re(r"`\[Result\]` 内容应按(?:默认)?上限 (?P<limit>\d+) 截断并追加 `\.\.\.`"))
def reader_result_cut_to(reader_ctx: ReaderContext, limit: str) -> None:
    original, bound = reader_ctx.tool_result or "", int(limit)
    shown = _result_block(reader_ctx)
    assert shown.endswith(ELLIPSIS) and original.startswith(shown[: -len(ELLIPSIS)]), (
        "[Result] must be the beginning of the result followed by '...', got "
        f"{shown[:30]!r}...{shown[-10:]!r}"
    )
    assert bound // 2 < len(shown) <= bound, (
        f"[Result] must be cut to the limit {bound} (using most of it), got {len(shown)} chars"
    )


@then("应优先按行边界截断并追加省略号")
def reader_cut_on_line_boundary(reader_ctx: ReaderContext) -> None:
    limit, lines = reader_ctx.limit or 0, reader_ctx.tool_result_lines
    shown = _result_block(reader_ctx)
    assert shown.endswith(ELLIPSIS) and len(shown) <= limit, (
        f"a multi-line result over the limit {limit} must be cut to at most {limit} chars ending in '...', "
        f"got {len(shown)} chars: {shown!r}"
    )
    body = shown[: -len(ELLIPSIS)]
    kept = body[:-1].split("\n") if body.endswith("\n") else body.split("\n")
    assert kept and kept != [""], f"at least the first line must be kept, got {shown!r}"
    assert kept == lines[: len(kept)], f"the result must be cut at a line boundary, got {shown!r}"
    assert shown == "\n".join(kept) + "\n" + ELLIPSIS, (
        f"the ellipsis must follow the kept lines on a line of its own, got ...{shown[-30:]!r}"
    )


@then("避免中间切断一行导致可读性下降")
def reader_whole_lines_kept(reader_ctx: ReaderContext) -> None:
    limit, lines = reader_ctx.limit or 0, reader_ctx.tool_result_lines
    shown = _result_block(reader_ctx)
    body = shown[: -len(ELLIPSIS)].rstrip("\n")
    kept = body.split("\n")
    partial = [line for line in kept if line not in lines]
    assert not partial, f"no line may be cut in the middle, got partial lines {partial}"
    fit = max(k for k in range(len(lines) + 1) if len("\n".join(lines[:k])) + len("\n" + ELLIPSIS) <= limit)
    assert len(kept) == fit, (
        f"{fit} whole lines fit within the limit {limit} together with the ellipsis, and all of them must "
        f"be kept; {len(kept)} were kept"
    )


@given(parsers.parse("`maxChars` 为 {max_chars:d}"))
def reader_compact_max(reader_ctx: ReaderContext, max_chars: int) -> None:
    turns = reader_ctx.result_turns("read")
    reader_ctx.full_text = reader_ctx.reader.compact(turns)
    assert len(reader_ctx.full_text) > max_chars, "the full compact text must be longer than maxChars"
    reader_ctx.max_chars = max_chars


@given("turns 为空列表")
def reader_no_turns(reader_ctx: ReaderContext) -> None:
    reader_ctx.turns = []


@when("调用 `compact(turns, maxChars)`")
def reader_call_compact_max(reader_ctx: ReaderContext) -> None:
    turns, max_chars = reader_ctx.result_turns("read"), reader_ctx.max_chars
    assert max_chars is not None
    reader_ctx.text = reader_ctx.call(lambda: reader_ctx.reader.compact(turns, max_chars))


@when(parsers.parse("以 `maxChars={max_chars:d}` 调用 `compact(turns, maxChars)`"))
def reader_call_compact_literal(reader_ctx: ReaderContext, max_chars: int) -> None:
    reader_ctx.max_chars = max_chars
    reader_call_compact_max(reader_ctx)


@then("输出长度应不超过 `maxChars`")
def reader_within_max(reader_ctx: ReaderContext) -> None:
    assert reader_ctx.error is None, f"compact(turns, {reader_ctx.max_chars}) raised {reader_ctx.error!r}"
    text = reader_ctx.text or ""
    assert 0 < len(text) <= (reader_ctx.max_chars or 0), (
        f"compact(turns, {reader_ctx.max_chars}) must return a non-empty text of at most "
        f"{reader_ctx.max_chars} "
        f"chars, got {len(text)}: {text!r}"
    )


@then("输出应与不传 `maxChars` 的 `compact(turns)` 全文相同")
def reader_compact_unlimited(reader_ctx: ReaderContext) -> None:
    assert reader_ctx.error is None, f"compact(turns, {reader_ctx.max_chars}) raised {reader_ctx.error!r}"
    full = reader_ctx.reader.compact(reader_ctx.result_turns("read"))
    assert full and reader_ctx.text == full, (
        f"only maxChars > 0 limits the text, so compact(turns, {reader_ctx.max_chars}) must return the whole "
        f"compact text {full!r}, got {reader_ctx.text!r}"
    )


@then("输出应为空字符串")
def reader_compact_empty(reader_ctx: ReaderContext) -> None:
    assert reader_ctx.error is None, f"compact(turns, {reader_ctx.max_chars}) raised {reader_ctx.error!r}"
    assert reader_ctx.text == "", (
        f"compact of no turns has no block to write: compact([], {reader_ctx.max_chars}) must return '', "
        f"got {reader_ctx.text!r}"
    )


@then("语义上应偏向保留末尾最近交互")
def reader_keeps_tail(reader_ctx: ReaderContext) -> None:
    text, full = reader_ctx.text or "", reader_ctx.full_text or ""
    assert "NEWEST" in text and "OLDEST" not in text, (
        f"compact(turns, {reader_ctx.max_chars}) must keep the most recent exchange (NEWEST) and drop the "
        "oldest "
        f"(OLDEST), got {text!r}"
    )
    assert full.rstrip().endswith(text.strip()), (
        f"the output must be the end of the full compact text, got {text!r}"
    )


@then(parsers.parse('输出应为 "{expected}"'))
def reader_compact_exact(reader_ctx: ReaderContext, expected: str) -> None:
    assert reader_ctx.error is None, f"compact raised {reader_ctx.error!r}"
    assert reader_ctx.text == expected, (
        f"compact(turns, {reader_ctx.max_chars}) must start at a whole block, without the blank separator "
        "line: "
        f"expected {expected!r}, got {reader_ctx.text!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Tool sequence and summary
# --------------------------------------------------------------------------------------------------------


@given("多轮 turn 中包含多个 toolCalls")
@given("输入会话包含多角色与重复工具调用")
@given("会话的 turns 读自以下各行")
def reader_tool_turns(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    _read_turns(reader_ctx)


@when("调用 `extractToolSequence(turns)`")
def reader_call_sequence(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("read")
    result = reader_ctx.call(lambda: reader_ctx.reader.extract_tool_sequence(turns))
    assert reader_ctx.error is None, f"extractToolSequence raised {reader_ctx.error!r}"
    reader_ctx.sequence = list(result)


@then("返回数组顺序应与出现顺序一致")
def reader_sequence_in_order(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    expected = [row[0] for row in datatable[1:]]
    assert reader_ctx.sequence == expected, (
        f"extractToolSequence must list every tool call's name in the order the calls were made: expected "
        f"{expected}, got {reader_ctx.sequence}"
    )


@then("不应去重导致顺序信息丢失")
def reader_sequence_keeps_repeats(reader_ctx: ReaderContext) -> None:
    names = [
        block["name"]
        for line in reader_ctx.lines
        for block in (json.loads(line)["content"] if isinstance(json.loads(line)["content"], list) else [])
        if block.get("type") == "tool_use"
    ]
    assert len(set(names)) < len(names), "the scenario's data must repeat a tool"
    assert Counter(reader_ctx.sequence) == Counter(names), (
        "repeated tools must stay in the sequence (no de-duplication): expected counts "
        f"{dict(Counter(names))}, got "
        f"{dict(Counter(reader_ctx.sequence))}"
    )


@when("调用 `summarize(turns)`")
def reader_call_summarize(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("read")
    reader_ctx.summary = reader_ctx.call(lambda: reader_ctx.reader.summarize(turns))
    assert reader_ctx.error is None, f"summarize raised {reader_ctx.error!r}"


@then("`userTurns/assistantTurns/toolCalls` 应准确")
def reader_summary_counts(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    summary = reader_ctx.summary
    assert summary is not None
    expected = dict(zip(datatable[0], (int(v) for v in datatable[1]), strict=True))
    got = {
        "userTurns": summary.user_turns,
        "assistantTurns": summary.assistant_turns,
        "toolCalls": summary.tool_calls,
    }
    assert got == expected, (
        f"summarize must count user turns, assistant turns and tool calls: expected {expected}, got {got}"
    )


@then("`uniqueTools` 应去重后返回")
def reader_summary_unique(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    summary = reader_ctx.summary
    assert summary is not None
    tools = list(summary.unique_tools)
    expected = [row[0] for row in datatable[1:]]
    assert len(tools) == len(set(tools)), f"uniqueTools must not repeat a tool, got {tools}"
    assert set(tools) == set(expected), (
        f"uniqueTools must name every tool used once: expected {expected}, got {tools}"
    )


@then("`uniqueTools` 应按第一次调用的顺序依次为")
def reader_summary_unique_in_order(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    summary = reader_ctx.summary
    assert summary is not None
    expected = [row[0] for row in datatable[1:]]
    tools = list(summary.unique_tools)
    assert tools == expected, (
        f"uniqueTools should name each tool once, in the order of its first call: expected {expected}, "
        f"got {tools}"
    )


@given("设置不同 `SYNAPSE_CHARS_PER_TOKEN` 配置")
def reader_chars_per_token_settings(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    reader_ctx.settings = [row[0] for row in datatable[1:]]
    assert len(reader_ctx.settings) >= 2
    if "estimatedTokens" in datatable[0]:
        column = datatable[0].index("estimatedTokens")
        reader_ctx.expected_estimates = {row[0]: int(row[column]) for row in datatable[1:]}


@given(parsers.parse("`SYNAPSE_CHARS_PER_TOKEN` 的默认值为 {default:d}"))
def reader_chars_per_token_default(reader_ctx: ReaderContext, default: int) -> None:
    assert str(default) in reader_ctx.settings, "the default value must be one of the settings compared"
    reader_ctx.default_chars_per_token = default


@given("未设置 `SYNAPSE_CHARS_PER_TOKEN`")
def reader_chars_per_token_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SYNAPSE_CHARS_PER_TOKEN", raising=False)


@given(parsers.re(r'设置 `SYNAPSE_CHARS_PER_TOKEN` 为 "(?P<value>[^"]*)"'))
def reader_chars_per_token_value(reader_ctx: ReaderContext, value: str) -> None:
    reader_ctx.settings = [cells.expand(value)]


@when("对同一会话执行 `summarize`")
def reader_summarize_each_setting(reader_ctx: ReaderContext, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = _read_turns(reader_ctx)
    assert turns, "the sample session must have turns"
    for value in [*reader_ctx.settings, None]:
        if value is None:
            monkeypatch.delenv("SYNAPSE_CHARS_PER_TOKEN", raising=False)
        else:
            monkeypatch.setenv("SYNAPSE_CHARS_PER_TOKEN", value)
        summary = reader_ctx.call(lambda: reader_ctx.reader.summarize(turns))
        setting = "unset" if value is None else repr(value)
        assert reader_ctx.error is None, (
            f"summarize with SYNAPSE_CHARS_PER_TOKEN={setting} raised {reader_ctx.error!r}"
        )
        reader_ctx.estimates[value] = summary.estimated_tokens


@then("`estimatedTokens` 应随配置变化")
def reader_estimate_varies(reader_ctx: ReaderContext) -> None:
    ordered = sorted(reader_ctx.settings, key=int)
    values = [reader_ctx.estimates[s] for s in ordered]
    expected = reader_ctx.expected_estimates
    got = {s: reader_ctx.estimates[s] for s in expected}
    assert got == expected, (
        "estimatedTokens must be the sum over turns of ceil(len(JSON of the turn's content) / "
        f"SYNAPSE_CHARS_PER_TOKEN): expected {expected}, got {got}"
    )
    assert all(a > b for a, b in pairwise(values)), (
        "estimatedTokens must follow SYNAPSE_CHARS_PER_TOKEN, read when summarize runs (more characters per "
        "token, "
        f"fewer tokens): got {dict(zip(ordered, values, strict=True))}"
    )


@then("配置缺失时应回退默认值")
def reader_estimate_default(reader_ctx: ReaderContext) -> None:
    default = reader_ctx.default_chars_per_token
    assert default is not None
    unset, explicit = reader_ctx.estimates[None], reader_ctx.estimates[str(default)]
    assert unset == explicit, (
        f"with SYNAPSE_CHARS_PER_TOKEN unset the estimate must use the default {default} ({explicit} "
        f"tokens), got {unset}"
    )


@then("`estimatedTokens` 应为正整数且等于未设置该配置时的估算值")
def reader_estimate_fallback(reader_ctx: ReaderContext) -> None:
    value = reader_ctx.settings[0]
    got, unset = reader_ctx.estimates[value], reader_ctx.estimates[None]
    assert isinstance(got, int) and not isinstance(got, bool) and got > 0, (
        f"SYNAPSE_CHARS_PER_TOKEN={value!r} must not give a non-positive or non-integer estimate, got {got!r}"
    )
    assert got == unset, (
        f"SYNAPSE_CHARS_PER_TOKEN={value!r} is invalid and must mean the default ({unset}), got {got}"
    )


# --------------------------------------------------------------------------------------------------------
# The agent's own session lines
# --------------------------------------------------------------------------------------------------------


@then("各 turn 的角色与文本应为")
def reader_roles_and_texts(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    turns = reader_ctx.result_turns("read")
    expected = [(row[0], row[1]) for row in datatable[1:]]
    got = [(t.role, t.content) for t in turns]
    assert got == expected, f"the session's turns (role, text) must be {expected}, got {got}"


@then("助手 turn 的 `toolCalls` 应包含解析后的参数")
def reader_native_tool_calls(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    turns = reader_ctx.result_turns("read")
    got = [(c.id, c.name, dict(c.input)) for t in turns if t.role == "assistant" for c in t.tool_calls or ()]
    expected = [(row[0], row[1], json.loads(row[2])) for row in datatable[1:]]
    assert got == expected, (
        f"toolCalls of the session lines must become tool calls with their JSON arguments parsed: expected "
        f"{expected}, got {got}"
    )


@then('`role: "tool"` 行应作为工具结果挂到紧随其后的 user turn 上')
def reader_native_tool_results(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    turns = reader_ctx.result_turns("read")
    expected: dict[int, list[tuple[str, str]]] = {}
    for turn_number, call_id, content in datatable[1:]:
        expected.setdefault(int(turn_number), []).append((call_id, content))
    for index, results in expected.items():
        assert index <= len(turns), (
            f"expected a turn #{index} holding tool results, got only {len(turns)} turns"
        )
        turn = turns[index - 1]
        got = [(r.tool_use_id, r.content) for r in turn.tool_results or ()]
        assert turn.role == "user" and got == results, (
            f"turn #{index} must be a user turn holding the tool results {results}, got role {turn.role!r} "
            f"with {got}"
        )


# --------------------------------------------------------------------------------------------------------
# Reading the tail of a large file
# --------------------------------------------------------------------------------------------------------


@given(parsers.parse("一个 {mib:d} MiB 的会话文件，只有末尾 {count:d} 行是会话内容"))
def reader_large_file(reader_ctx: ReaderContext, mib: int, count: int, docstring: str) -> None:
    reader_ctx.lines = _docstring_lines(docstring)
    assert len(reader_ctx.lines) == count
    payload = ("\n" + "\n".join(reader_ctx.lines) + "\n").encode("utf-8")
    reader_ctx.path = reader_ctx.tmp_path / "large-session.jsonl"
    with reader_ctx.path.open("wb") as handle:
        # A sparse file: the head is a hole the reader would have to read through to reach the tail.
        handle.seek(mib * 1024 * 1024 - len(payload))
        handle.write(payload)
    assert reader_ctx.path.stat().st_size == mib * 1024 * 1024


@when(parsers.parse("以 `maxChars={max_chars:d}` 调用 `readTruncated`"))
def reader_call_truncated_measured(
    reader_ctx: ReaderContext, synapse: contract.Implementation, max_chars: int
) -> None:
    path = reader_ctx.path
    assert path is not None
    reader_ctx.max_chars = max_chars
    reader = reader_ctx.reader  # built before counting: only the call's own reads are measured
    with probes.process_io(synapse) as io_count:
        reader_ctx.turns = reader_ctx.call(lambda: reader.read_truncated(str(path), max_chars))
    reader_ctx.bytes_read = io_count.bytes_read
    reader_ctx.bytes_measure = io_count.measure


@then(parsers.parse("返回的 turn id 依次为 `{ids}`"))
def reader_turn_ids(reader_ctx: ReaderContext, ids: str) -> None:
    expected = [i.strip() for i in ids.split(",")]
    got = [t.id for t in reader_ctx.result_turns(f"readTruncated(filePath, {reader_ctx.max_chars})")]
    assert got == expected, f"readTruncated must return the turns of the file's tail {expected}, got {got}"


@then(parsers.parse("本次调用读取的字节数不应超过 {kib:d} KiB"))
def reader_bounded_read(reader_ctx: ReaderContext, kib: int) -> None:
    assert reader_ctx.path is not None and reader_ctx.bytes_read is not None
    size = reader_ctx.path.stat().st_size
    assert reader_ctx.bytes_read <= kib * 1024, (
        f"readTruncated(filePath, {reader_ctx.max_chars}) on a {size}-byte file used {reader_ctx.bytes_read} "
        f"{reader_ctx.bytes_measure}; reading the tail must cost in proportion to maxChars, not to the file "
        "size "
        f"(at most {kib} KiB)"
    )


# --------------------------------------------------------------------------------------------------------
# Windows of every size, turn ids, malformed input, tool-result text and the token estimate
# --------------------------------------------------------------------------------------------------------


@given("会话文件内容如下")
def reader_file_verbatim(reader_ctx: ReaderContext, docstring: str) -> None:
    """The docstring's lines as they are, blank lines included."""
    reader_ctx.lines = docstring.split("\n")
    reader_ctx.write()


def _load_line(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _expected_window(text: str, max_chars: int) -> tuple[list[tuple[str, str, str]], int]:
    """(id, role, content) of the turns in the last ``max_chars`` characters, and how many damaged
    complete lines they hold: the partial line at the start of a window is neither."""
    window = text[-max_chars:]
    if max_chars < len(text) and text[-max_chars - 1] != "\n":
        newline = window.find("\n")
        window = "" if newline == -1 else window[newline + 1 :]
    turns: list[tuple[str, str, str]] = []
    damaged = 0
    for line in window.split("\n"):
        if not line.strip():
            continue
        data = _load_line(line)
        if not isinstance(data, dict):
            damaged += 1
        elif data.get("role") in ("user", "assistant"):
            content = data["content"]
            if isinstance(content, list):
                content = "\n".join(b["text"] for b in content if b.get("type") == "text")
            turns.append((data["id"], data["role"], content))
    return turns, damaged


@when("对从 1 到文件长度加 1 的每个 `maxChars` 调用 `readTruncated`")
def reader_truncated_every_size(reader_ctx: ReaderContext) -> None:
    path = reader_ctx.path
    assert path is not None
    text = reader_ctx.file_text()
    for max_chars in range(1, len(text) + 2):
        turns = reader_ctx.call(partial(reader_ctx.reader.read_truncated, str(path), max_chars))
        expected, damaged = _expected_window(text, max_chars)
        if reader_ctx.error is not None:
            reader_ctx.failures.append(f"maxChars={max_chars}: raised {reader_ctx.error!r}")
            reader_ctx.error = None
            continue
        got = [(t.id, t.role, t.content) for t in turns]
        if got != expected:
            reader_ctx.failures.append(f"maxChars={max_chars}: expected turns {expected}, got {got}")
        warned = len(reader_ctx.warnings)
        if warned != damaged:
            reader_ctx.warnings_failures.append(
                f"maxChars={max_chars}: {damaged} damaged complete line(s) in the window, {warned} "
                f"warning(s): {[r.getMessage() for r in reader_ctx.warnings]}"
            )


@then("每次结果都应恰好是窗口内完整行的 turn")
def reader_every_window_exact(reader_ctx: ReaderContext) -> None:
    failures = reader_ctx.failures
    assert not failures, (
        "readTruncated(filePath, maxChars) must return the turns of exactly the complete lines within the "
        "last maxChars characters (the partial first line dropped), for every maxChars; "
        f"{len(failures)} failed, first: {failures[:3]}"
    )


@then("每次都应只为窗口内完整的损坏行各记录一条 warning 日志")
def reader_every_window_warnings(reader_ctx: ReaderContext) -> None:
    failures = reader_ctx.warnings_failures
    assert not failures, (
        "each damaged complete line in the window must log one WARNING, and the partial line before the "
        f"window none; {len(failures)} window sizes differ, first: {failures[:3]}"
    )


def _expected_compact_tail(full: str, max_chars: int) -> str:
    """The last ``max_chars`` characters from the first line starting inside them (all of them when none
    does, the tail of one long line), without leading newlines."""
    if len(full) <= max_chars:
        return full
    tail = full[-max_chars:]
    starts = [0] if full[-max_chars - 1] == "\n" else []
    starts += [i + 1 for i, char in enumerate(tail[:-1]) if char == "\n"]
    return tail[starts[0] if starts else 0 :].lstrip("\n")


@when("对从 1 到全文长度加 1 的每个 `maxChars` 调用 `compact(turns, maxChars)`")
def reader_compact_every_size(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("read")
    full = reader_ctx.call(lambda: reader_ctx.reader.compact(turns))
    assert reader_ctx.error is None and isinstance(full, str), f"compact(turns) raised {reader_ctx.error!r}"
    reader_ctx.full_text = full
    for max_chars in range(1, len(full) + 2):
        text = reader_ctx.call(partial(reader_ctx.reader.compact, turns, max_chars))
        expected = _expected_compact_tail(full, max_chars)
        if reader_ctx.error is not None:
            reader_ctx.failures.append(f"maxChars={max_chars}: raised {reader_ctx.error!r}")
            reader_ctx.error = None
        elif text != expected:
            reader_ctx.failures.append(f"maxChars={max_chars}: expected {expected!r}, got {text!r}")


@then("每次输出都应是全文末尾 `maxChars` 个字符中从第一个完整行开始的部分且不以空行开头")
def reader_compact_every_size_exact(reader_ctx: ReaderContext) -> None:
    failures = reader_ctx.failures
    assert not failures, (
        "compact(turns, maxChars) must keep the last maxChars characters of the full text from the first "
        "line that starts inside them, without leading blank lines (the bare tail when no line starts "
        f"there), for every maxChars; {len(failures)} failed, first: {failures[:3]}"
    )


GENERATED = "(生成)"


@then("各 turn 的 id 应为")
def reader_turn_ids_table(reader_ctx: ReaderContext, datatable: list[list[str]]) -> None:
    turns = reader_ctx.result_turns("read")
    expected = [(row[0], row[1]) for row in datatable[1:]]
    assert len(turns) == len(expected), (
        f"expected {len(expected)} turns, got {[(t.role, t.id) for t in turns]}"
    )
    got = [
        (t.role, GENERATED if row_id == GENERATED else t.id)
        for t, (_, row_id) in zip(turns, expected, strict=True)
    ]
    assert got == expected, (
        f"the turns (role, id) must be {expected} ({GENERATED} where the line has no usable id), got "
        f"{[(t.role, t.id) for t in turns]}"
    )


@then("生成的 id 应为非空字符串且与其它 turn 的 id 互不相同")
def reader_generated_ids_distinct(reader_ctx: ReaderContext) -> None:
    ids = [t.id for t in reader_ctx.result_turns("read")]
    assert all(isinstance(i, str) and i for i in ids), f"every turn id must be a non-empty string, got {ids}"
    assert len(set(ids)) == len(ids), f"turn ids must differ from each other, got {ids}"


@then(parsers.parse("应依次为第 `{numbers}` 行各记录一条 warning 日志，日志写明该行的行号"))
def reader_warned_line_numbers(reader_ctx: ReaderContext, numbers: str) -> None:
    expected = [int(n) for n in numbers.split(",")]
    messages = [probes.logged_text(r) for r in reader_ctx.warnings]
    named = [[int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w.])", m)] for m in messages]
    assert len(messages) == len(expected) and all(
        line in found for line, found in zip(expected, named, strict=True)
    ), f"one WARNING per skipped line, in file order, each naming its line number {expected}; got {messages}"


@given("会话文件内容如下，其中 `{U+XXXX}` 表示该码位的字符")
def reader_file_with_code_points(reader_ctx: ReaderContext, docstring: str) -> None:
    """Characters a feature file cannot show (or its parser would take as a line break) written by code
    point; the file's lines are the docstring's, split at ``\\n`` only."""
    reader_ctx.lines = cells.expand(docstring).split("\n")
    reader_ctx.write()


@given(parsers.re(r"^会话文件内容为 `(?P<text>[\s\S]*)`（`\\s`、`\\t`、`\\r` 表示空格、制表符与回车）$"))
def reader_file_escaped(reader_ctx: ReaderContext, text: str) -> None:
    """Line breaks come from the table cell's ``\\n``; the whitespace a cell would trim is written escaped."""
    text = text.replace("\\s", " ").replace("\\t", "\t").replace("\\r", "\r")
    reader_ctx.lines = text.split("\n")
    reader_ctx.trailing_newline = False
    reader_ctx.write()


@then(parsers.parse("返回的 turn 应依次为 id 为 `{ids}` 的行"))
def reader_turns_of_lines(reader_ctx: ReaderContext, ids: str) -> None:
    expected = [i.strip() for i in ids.split(",")]
    got = [t.id for t in reader_ctx.result_turns("read")]
    assert got == expected, f"read must return one turn per valid line {expected}, got {got}"


_MIB = 1 << 20


@given(
    parsers.parse(
        "一个大于 {mib:d} MiB 的会话文件：中文对话行中有一行中文长行跨过第 {cut:d} MiB 字节，"
        "文件以下列各行结束且末尾没有换行"
    )
)
def reader_big_cjk_file(reader_ctx: ReaderContext, mib: int, cut: int, docstring: str) -> None:
    """The byte at ``cut`` MiB falls inside a three-byte character of the long line, past its start."""
    boundary = cut * _MIB
    lines: list[str] = []
    size = 0
    while size < boundary - 4096:
        role = "user" if len(lines) % 2 == 0 else "assistant"
        line = json.dumps({"role": role, "content": f"第{len(lines)}行：" + "汉字" * 60}, ensure_ascii=False)
        lines.append(line)
        size += len(line.encode("utf-8")) + 1
    head = '{"role":"assistant","content":"'
    pad = (boundary - size - len(head) - 1) % 3  # then the boundary is one byte into a character
    lines.append(head + "x" * pad + "跨" * 3000 + '"}')
    assert (boundary - size - len(head) - pad) % 3 == 1 and size + len(lines[-1].encode()) > boundary
    reader_ctx.tail_first_line = len(lines) + 1
    lines.extend(docstring.split("\n"))
    reader_ctx.lines = lines
    reader_ctx.trailing_newline = False
    path = reader_ctx.write()
    assert path.stat().st_size > mib * _MIB


@given(
    parsers.parse("一个会话文件：第 2 行是一行超过 {mib:d} MiB 的中文长行，文件以下列各行结束且末尾没有换行")
)
def reader_huge_line_file(reader_ctx: ReaderContext, mib: int, docstring: str) -> None:
    long_line = '{"role":"assistant","content":"' + "长" * (mib * _MIB // 3 + 1000) + '"}'
    lines = ['{"role":"user","content":"请读这一行"}', long_line]
    reader_ctx.tail_first_line = len(lines) + 1
    lines.extend(docstring.split("\n"))
    reader_ctx.lines = lines
    reader_ctx.trailing_newline = False
    reader_ctx.write()
    assert len(long_line.encode("utf-8")) > mib * _MIB


@then("每个合法的 user 与 assistant 行都应依次成为一个内容完整的 turn")
def reader_every_valid_line_a_turn(reader_ctx: ReaderContext) -> None:
    expected = []
    for line in reader_ctx.lines:
        data = _load_line(line)
        if isinstance(data, dict) and data.get("role") in ("user", "assistant"):
            assert isinstance(data["content"], str), "scenario data: text content only"
            expected.append((data["role"], data["content"]))
    got = [(t.role, t.content) for t in reader_ctx.result_turns("read")]
    if got != expected:
        diff = next(i for i, pair in enumerate(zip(got, expected, strict=False)) if pair[0] != pair[1])
        raise AssertionError(
            f"expected {len(expected)} turns, one per valid line with its whole content, got {len(got)}; "
            f"first difference at turn {diff + 1}: {got[diff]!r:.200} instead of {expected[diff]!r:.200}"
        )


@then(parsers.parse("应依次为末尾第 `{numbers}` 行各记录一条 warning 日志，日志写明该行在文件中的行号"))
def reader_warned_tail_line_numbers(reader_ctx: ReaderContext, numbers: str) -> None:
    first = reader_ctx.tail_first_line
    reader_warned_line_numbers(reader_ctx, ",".join(str(first + int(n) - 1) for n in numbers.split(",")))


@then(parsers.parse("应只记录 {count:d} 条 warning 日志，每个不是 JSON 的行一条"))
def reader_warned_count(reader_ctx: ReaderContext, count: int) -> None:
    messages = [probes.logged_text(r) for r in reader_ctx.warnings]
    assert len(messages) == count, (
        f"one WARNING per line that is no JSON ({count}), none for a line blank to trim(); got {messages}"
    )


@then(parsers.parse("应为 {count:d} 个缺少 toolCallId 的 tool 行各记录一条 warning 日志"))
def reader_warned_tool_lines(reader_ctx: ReaderContext, count: int) -> None:
    messages = [r.getMessage() for r in reader_ctx.warnings]
    assert len(messages) == count, (
        f"each of the {count} tool lines without a toolCallId must be skipped with one WARNING on a "
        f"'synapse.*' logger; got {messages}"
    )


@then(parsers.parse("第 {number:d} 个 turn 的 toolResults 内容应为"))
def reader_tool_result_texts(reader_ctx: ReaderContext, number: int, datatable: list[list[str]]) -> None:
    turns = reader_ctx.result_turns("read")
    assert len(turns) >= number, f"expected at least {number} turns, got {len(turns)}"
    got = [(r.tool_use_id, r.content) for r in turns[number - 1].tool_results or ()]
    expected = [(row[0], row[1]) for row in datatable[1:]]
    assert got == expected, (
        "tool results must read text parts joined by a newline, anything else as compact JSON keeping "
        f"non-ASCII characters, and no content as an empty text: expected {expected}, got {got}"
    )


@given("工具结果为以下多行文本")
def reader_multiline_result_text(reader_ctx: ReaderContext, docstring: str) -> None:
    reader_ctx.tool_result_lines = docstring.split("\n")
    reader_ctx.tool_result = docstring
    assert reader_ctx.limit is not None and len(docstring) > reader_ctx.limit
    reader_ctx.lines = _tool_result_session(docstring)
    _read_turns(reader_ctx)


@then(parsers.parse("`[Result]` 应为前 {kept:d} 行加上单独一行的 `...`"))
def reader_result_kept_lines(reader_ctx: ReaderContext, kept: int) -> None:
    expected = "\n".join(reader_ctx.tool_result_lines[:kept]) + "\n" + ELLIPSIS
    shown = _result_block(reader_ctx)
    assert shown == expected, (
        f"with the limit {reader_ctx.limit}, the first {kept} whole line(s) fit together with the ellipsis "
        f"on its own line: expected {expected!r}, got {shown!r}"
    )


@then(parsers.parse("`[Result]` 应为结果的前 {chars:d} 个字符加 `...`"))
def reader_result_kept_chars(reader_ctx: ReaderContext, chars: int) -> None:
    expected = (reader_ctx.tool_result or "")[:chars] + ELLIPSIS
    shown = _result_block(reader_ctx)
    assert shown == expected, (
        f"with the limit {reader_ctx.limit} not even the first line fits with the ellipsis, so the result is "
        f"cut by characters: expected {expected!r}, got {shown!r}"
    )


@then(parsers.parse("摘要的 `estimatedTokens` 应为 {count:d}（默认每 4 个字符计 1 token）"))
def reader_summary_estimate_is(reader_ctx: ReaderContext, count: int) -> None:
    assert reader_ctx.summary is not None
    got = reader_ctx.summary.estimated_tokens
    assert got == count, (
        "the estimate is ceil(characters of each turn's JSON content / 4), escapes counted as written: "
        f"expected {count}, got {got}"
    )


@then(parsers.parse("`estimatedTokens` 应为 {count:d}"))
def reader_estimate_is(reader_ctx: ReaderContext, count: int) -> None:
    value = reader_ctx.settings[0]
    got = reader_ctx.estimates[value]
    assert got == count, (
        f"with SYNAPSE_CHARS_PER_TOKEN={value} the estimate counts the characters of the JSON content "
        f"(non-ASCII characters as one each): expected {count}, got {got}"
    )


@when(parsers.parse("把 tool 行的文本加长 {count:d} 个字符后再次执行 `summarize`"))
def reader_summarize_longer_tool_result(
    reader_ctx: ReaderContext, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    lines = []
    for line in reader_ctx.lines:
        data = json.loads(line)
        if data.get("role") == "tool":
            data["content"][0]["text"] += "x" * count
            line = json.dumps(data, ensure_ascii=False)
        lines.append(line)
    assert lines != reader_ctx.lines, "the session must have a tool line"
    reader_ctx.lines = lines
    turns = _read_turns(reader_ctx)
    monkeypatch.setenv("SYNAPSE_CHARS_PER_TOKEN", reader_ctx.settings[0])
    summary = reader_ctx.call(lambda: reader_ctx.reader.summarize(turns))
    assert reader_ctx.error is None, f"summarize raised {reader_ctx.error!r}"
    reader_ctx.estimates["longer"] = summary.estimated_tokens


@then(parsers.parse("两次的 `estimatedTokens` 应相差 {count:d}"))
def reader_estimate_grew(reader_ctx: ReaderContext, count: int) -> None:
    before, after = reader_ctx.estimates[reader_ctx.settings[0]], reader_ctx.estimates["longer"]
    assert after - before == count, (
        f"{count} more characters of tool output at SYNAPSE_CHARS_PER_TOKEN={reader_ctx.settings[0]} must "
        f"add {count} to the estimate: got {before} then {after}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: lines nested too deeply
# --------------------------------------------------------------------------------------------------------


@given(parsers.parse("会话文件的第 2 行是 content 嵌套 {depth:d} 层数组的 user 消息，前后各有一条合法消息"))
def reader_deep_line(reader_ctx: ReaderContext, depth: int) -> None:
    deep = '{"id":"deep","role":"user","content":' + "[" * depth + "]" * depth + "}"
    reader_ctx.lines = [
        json.dumps({"id": "before", "role": "user", "content": "Read the config"}),
        deep,
        json.dumps({"id": "after", "role": "assistant", "content": "The config is fine."}),
    ]
    reader_ctx.write()


@when("读取该文件，并对读到的 turns 执行 `summarize` 与 `compact`")
def reader_read_summarize_compact(reader_ctx: ReaderContext) -> None:
    path = reader_ctx.path
    assert path is not None
    reader_ctx.turns = reader_ctx.call(lambda: reader_ctx.reader.read(str(path)))
    read_warnings = list(reader_ctx.warnings)
    if reader_ctx.error is None and reader_ctx.turns is not None:
        turns = list(reader_ctx.turns)
        reader_ctx.summary = reader_ctx.call(lambda: reader_ctx.reader.summarize(turns))
        reader_ctx.text = reader_ctx.call(lambda: reader_ctx.reader.compact(turns))
    reader_ctx.warnings = read_warnings


@then("三次调用都不应抛出异常，前后两条合法消息依次成为 turn")
def reader_deep_no_error(reader_ctx: ReaderContext) -> None:
    turns = reader_ctx.result_turns("read of a file with a deeply nested line")
    assert reader_ctx.summary is not None and reader_ctx.text is not None, (
        f"summarize and compact must return a summary and a text, raised {reader_ctx.error!r}"
    )
    ids = [t.id for t in turns if t.id != "deep"]
    assert ids == ["before", "after"], f"the valid lines must still become turns in order, got {ids}"
    assert "[User] Read the config" in reader_ctx.text and "The config is fine." in reader_ctx.text, (
        f"compact must still render the valid turns, got {reader_ctx.text!r}"
    )


@then("嵌套过深的行要么成为 turn，要么被跳过并记录 warning")
def reader_deep_kept_or_warned(reader_ctx: ReaderContext) -> None:
    kept = any(t.id == "deep" for t in reader_ctx.result_turns("read"))
    if not kept:
        assert reader_ctx.warnings, "skipping the deeply nested line must log a warning on a synapse.* logger"


@given(parsers.parse('工具结果是 {length:d} 个字符的单行文本，由 "{chars}" 循环组成'))
def reader_single_line_result_of(reader_ctx: ReaderContext, length: int, chars: str) -> None:
    """Wide characters (CJK, emoji outside the BMP) make characters, UTF-16 units and bytes disagree."""
    reader_ctx.tool_result = (chars * (length // len(chars) + 1))[:length]
    reader_ctx.lines = _tool_result_session(reader_ctx.tool_result)
    _read_turns(reader_ctx)
