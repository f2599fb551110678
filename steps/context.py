"""Step definitions of the context layer: offload, compaction triggers, restore safety, retry, cleanup.

Everything is reached through ``synapse.<factory>(...)``.  Tokens are counted with ``CharTokenCounter``
(one token per character of a message's compact JSON text), so thresholds are exact.

File reads are observed through the kernel (``probes.watch_files``, inotify) and a deletion failure is
injected in the file system (``probes.undeletable``), so the checks hold for any process and do not depend
on how, or in which language, an implementation opens or deletes a file.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from pytest_bdd import given, parsers, then, when

from steps.support import (
    CharTokenCounter,
    FailingTokenCounter,
    PartsModel,
    RecordingSleep,
    message_tokens,
    reply_parts_of,
    run,
)
from synapse_spec import cells, contract, probes

Message = dict[str, Any]

REFERENCE_PREFIX = "Tool result is at:"
COMPRESSED_PREFIX = "[Compressed History]\n\n"
SUMMARY_ERROR = "summary service unavailable"


# --------------------------------------------------------------------------------------------------------
# File-system observation through the kernel
# --------------------------------------------------------------------------------------------------------


@dataclass
class CtxFs:
    """File-system conditions a scenario puts in place (held until it ends) and what a watch saw."""

    stack: contextlib.ExitStack
    watch: probes.FileWatch | None = None


@pytest.fixture
def ctx_fs() -> Iterator[CtxFs]:
    with contextlib.ExitStack() as stack:
        yield CtxFs(stack)


# --------------------------------------------------------------------------------------------------------
# Scenario state, doubles and helpers
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CtxOffloadReport:
    """What the ContextManager double reports (the contract's ``OffloadResult``)."""

    messages: list[Message]
    offloaded_count: int
    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    still_exceeds_threshold: bool


@dataclass(frozen=True)
class CtxCompactRecord:
    """What the ContextCompactor double returns (the contract's ``CompactResult``)."""

    messages: list[Message]
    previous_tokens: int
    current_tokens: int
    freed_tokens: int
    preserved_count: int
    deleted_files: list[str]
    success: bool


class CtxOffloadDouble:
    """Stands in for the ContextManager: records its inputs and reports what the scenario says."""

    def __init__(self) -> None:
        self.calls: list[list[Message]] = []
        self.report: dict[str, int] = {}
        self.still_exceeds: bool | None = None
        self.returned: list[list[Message]] = []

    def offload_if_needed(self, messages: list[Message]) -> CtxOffloadReport:
        assert self.report and self.still_exceeds is not None, (
            "the scenario did not script the offload report"
        )
        self.calls.append(copy.deepcopy(messages))
        count = self.report["offloadedCount"]
        view = copy.deepcopy(messages)
        if count > 0:
            view[0] = _ctx_text_message("user", f"offloaded view of step {len(self.calls)}")
        self.returned.append(copy.deepcopy(view))
        return CtxOffloadReport(
            messages=view,
            offloaded_count=count,
            previous_tokens=self.report["previousTokens"],
            current_tokens=self.report["currentTokens"],
            freed_tokens=self.report["freedTokens"],
            still_exceeds_threshold=self.still_exceeds,
        )


class CtxCompactDouble:
    """Stands in for the ContextCompactor: records each ``compact`` call and answers as scripted."""

    def __init__(self) -> None:
        self.calls: list[list[Message]] = []
        self.success = True
        self.returned: list[CtxCompactRecord] = []

    async def compact(self, messages: list[Message]) -> CtxCompactRecord:
        self.calls.append(copy.deepcopy(messages))
        if self.success:
            kept = copy.deepcopy(messages[-5:])
            compacted = [_ctx_text_message("user", COMPRESSED_PREFIX + f"summary {len(self.calls)}"), *kept]
            record = CtxCompactRecord(compacted, 90000, 20000, 70000, len(kept), [], True)
        else:
            record = CtxCompactRecord(copy.deepcopy(messages), 90000, 90000, 0, 5, [], False)
        self.returned.append(record)
        return record


@dataclass
class CtxState:
    """Everything one context scenario builds up between its steps."""

    root: Path
    session_dir: Path
    counter: CharTokenCounter | FailingTokenCounter | None = field(default_factory=CharTokenCounter)
    storage: contract.OffloadStorage | None = None
    messages: list[Message] = field(default_factory=list)
    snapshot: list[Message] = field(default_factory=list)
    subject: int | None = None
    # ContextManager
    offload_threshold: int | None = None
    scan_ratio: float = 0.5
    min_chars: int = 50
    offload_result: contract.OffloadResult | None = None
    files_before: list[str] = field(default_factory=list)
    # ContextCompactor
    llm: contract.ScriptedLLM | None = None
    preserve_count: int = 5
    retry_count: int = 3
    target_tokens: int = 8000
    compact_model: str | None = None
    summary: str | None = None
    compact_result: contract.CompactResult | None = None
    restored: list[Message] | None = None
    files: dict[str, str] = field(default_factory=dict)
    retained: list[str] = field(default_factory=list)
    deny: list[str] = field(default_factory=list)
    deleted: list[str] | None = None
    error: BaseException | None = None
    # ContextOrchestrator
    orchestrator: contract.ContextOrchestrator | None = None
    offload_double: CtxOffloadDouble = field(default_factory=CtxOffloadDouble)
    compact_double: CtxCompactDouble = field(default_factory=CtxCompactDouble)
    orch_settings: dict[str, int] = field(default_factory=dict)
    offload_dir: Path | None = None
    prior_attempt: str | None = None
    orch_result: contract.OrchestratorResult | None = None
    orch_results_by_dir: dict[str, contract.OrchestratorResult] = field(default_factory=dict)
    compact_calls_before: int = 0
    steps_before_force: int = 0
    log_mark: int = 0
    # Repeated restores: whether the other process changing the referenced file has started
    changing: Callable[[], bool] | None = None
    probes: list[CtxProbe] = field(default_factory=list)
    compact_results: list[contract.CompactResult] = field(default_factory=list)
    calls_after_first: int = 0

    @property
    def offloaded_dir(self) -> Path:
        return self.session_dir / "offloaded"

    @property
    def outside_dir(self) -> Path:
        return self.root / "outside"

    def expand(self, text: str) -> str:
        """Directory placeholders, and ``{U+FEFF}``-style code points that would be invisible in a table."""
        text = text.replace("{offloaded}", str(self.offloaded_dir)).replace(
            "{outside}", str(self.outside_dir)
        )
        return cells.expand(text)


@pytest.fixture
def ctx_state(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> CtxState:
    caplog.set_level(logging.DEBUG, logger="synapse")
    root = tmp_path / "sessions"
    session_dir = root / "session-ctx-spec"
    root.mkdir()
    return CtxState(root=root, session_dir=session_dir)


def _ctx_text_message(role: str, text: str) -> Message:
    return {"role": role, "content": [{"type": "text", "text": text}]}


def _ctx_text(message: Message) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    assert isinstance(content, list), f"message content should be a list of parts, got {content!r}"
    return "\n".join(
        str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text"
    )


def _ctx_parse_messages(state: CtxState, datatable: list[list[str]]) -> list[Message]:
    """Rows ``role | text | repeat? | call?``: ``repeat`` repeats the text, ``call`` is the tool-call id(s)
    of an assistant turn (comma-separated) or the ``toolCallId`` of a tool result."""
    header, *rows = datatable
    messages: list[Message] = []
    for index, row in enumerate(rows):
        cells = dict(zip(header, row, strict=True))
        text = state.expand(cells["text"]) * int(cells.get("repeat") or 1)
        message = _ctx_text_message(cells["role"], text)
        call = (cells.get("call") or "").strip()
        if cells["role"] == "assistant" and call:
            message["toolCalls"] = [
                {"id": c.strip(), "name": "read", "arguments": "{}"} for c in call.split(",") if c.strip()
            ]
        if cells["role"] == "tool":
            message["toolCallId"] = call or f"call-{index}"
        messages.append(message)
    return messages


def _ctx_conversation(count: int) -> list[Message]:
    return [
        _ctx_text_message("user" if i % 2 == 0 else "assistant", f"第 {i + 1} 条对话：讨论实现细节 {i}")
        for i in range(count)
    ]


def _ctx_offloadable(message: Message, min_chars: int) -> bool:
    if message.get("role") != "tool":
        return False
    text = _ctx_text(message)
    return len(text) > min_chars and not text.lstrip().startswith(REFERENCE_PREFIX)


def _ctx_files(directory: Path) -> list[str]:
    if not directory.exists():
        return []
    return sorted(str(p) for p in directory.rglob("*") if p.is_file())


def _ctx_real(path: str) -> str:
    return os.path.realpath(path)


def _ctx_reference_path(message: Message) -> str | None:
    text = _ctx_text(message).strip()
    if not text.startswith(REFERENCE_PREFIX):
        return None
    return text[len(REFERENCE_PREFIX) :].strip() or None


def _ctx_synapse_warnings(caplog: pytest.LogCaptureFixture, since: int = 0) -> list[logging.LogRecord]:
    return probes.implementation_records(caplog.records[since:], logging.WARNING)


def _ctx_storage(state: CtxState, synapse: contract.Implementation) -> contract.OffloadStorage:
    if state.storage is None:
        state.storage = synapse.offload_storage(state.session_dir)
    return state.storage


def _ctx_compactor(
    state: CtxState, synapse: contract.Implementation, sleep: RecordingSleep
) -> contract.ContextCompactor:
    assert state.llm is not None, "the scenario did not set up the scripted model"
    return synapse.context_compactor(
        _ctx_storage(state, synapse),
        state.llm,
        token_counter=state.counter,
        preserve_count=state.preserve_count,
        target_tokens=state.target_tokens,
        retry_count=state.retry_count,
        model=state.compact_model,
        sleep=sleep,
    )


def _ctx_result(state: CtxState) -> contract.OffloadResult:
    assert state.offload_result is not None, "offloadIfNeeded was not called"
    return state.offload_result


def _ctx_compacted(state: CtxState) -> contract.CompactResult:
    assert state.compact_result is not None, "compact was not called"
    return state.compact_result


def _ctx_llm(state: CtxState) -> contract.ScriptedLLM:
    assert state.llm is not None, "the scenario did not set up the scripted model"
    return state.llm


# --------------------------------------------------------------------------------------------------------
# Feature: Context offload 触发规则
# --------------------------------------------------------------------------------------------------------


@given("一个每字符计 1 token 的计数器与一个空的会话 offload 目录")
def ctx_given_counter_and_dir(ctx_state: CtxState, synapse: contract.Implementation) -> None:
    storage = _ctx_storage(ctx_state, synapse)
    assert Path(storage.offloaded_dir) == ctx_state.offloaded_dir, (
        f"offload files must live in <session dir>/offloaded, storage uses {storage.offloaded_dir}"
    )
    assert _ctx_files(ctx_state.offloaded_dir) == [], "a new session must start with no offload files"


@given(parsers.re(r"ContextManager 参数为 `scanRatio=(?P<ratio>[0-9.]+)` 与 `minChars=(?P<min_chars>\d+)`"))
def ctx_given_manager_params(ctx_state: CtxState, ratio: str, min_chars: str) -> None:
    ctx_state.scan_ratio = float(ratio)
    ctx_state.min_chars = int(min_chars)


@given("历史消息为:")
def ctx_given_messages(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)


@given("`ContextManager.offloadThreshold` 高于当前历史 token")
def ctx_given_threshold_above(ctx_state: CtxState) -> None:
    ctx_state.offload_threshold = message_tokens(ctx_state.messages) + 1


@given("当前 token 超过 offload 阈值")
def ctx_given_threshold_exceeded(ctx_state: CtxState) -> None:
    tokens = message_tokens(ctx_state.messages)
    ctx_state.offload_threshold = tokens - 1


@given("offload 阈值恰好等于当前历史 token")
def ctx_given_threshold_equal(ctx_state: CtxState) -> None:
    ctx_state.offload_threshold = message_tokens(ctx_state.messages)


@given(parsers.parse("offload 阈值为 `{threshold:d}`"))
def ctx_given_threshold(ctx_state: CtxState, threshold: int) -> None:
    ctx_state.offload_threshold = threshold


@given("历史中包含超长 `tool` 消息文本")
def ctx_given_long_tool(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    long_tools = [i for i, m in enumerate(ctx_state.messages) if _ctx_offloadable(m, ctx_state.min_chars)]
    assert len(long_tools) == 1, "scenario data: exactly one tool message longer than minChars"
    ctx_state.subject = long_tools[0]


@given(parsers.re(r"`scanRatio=(?P<ratio>[0-9.]+)` 且前后半区都存在 tool 消息"))
def ctx_given_scan_ratio(ctx_state: CtxState, ratio: str, datatable: list[list[str]]) -> None:
    ctx_state.scan_ratio = float(ratio)
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    scan_end = math.floor(len(ctx_state.messages) * ctx_state.scan_ratio)
    front = [m for m in ctx_state.messages[:scan_end] if _ctx_offloadable(m, ctx_state.min_chars)]
    back = [m for m in ctx_state.messages[scan_end:] if _ctx_offloadable(m, ctx_state.min_chars)]
    assert front and back, "scenario data: both halves need a tool message long enough to be offloaded"


@given("tool 文本长度小于等于 `minChars`")
def ctx_given_short_tool(ctx_state: CtxState) -> None:
    short = [
        i
        for i, m in enumerate(ctx_state.messages)
        if m["role"] == "tool" and len(_ctx_text(m)) <= ctx_state.min_chars
    ]
    assert len(short) == 1, "scenario data: exactly one tool message of at most minChars characters"
    ctx_state.subject = short[0]


@given(parsers.re(r"tool 消息内容(?P<blank>以空白开头，其后)?以 `Tool result is at:` 开头"))
def ctx_given_reference_tool(ctx_state: CtxState, blank: str | None) -> None:
    refs = [
        i
        for i, m in enumerate(ctx_state.messages)
        if m["role"] == "tool"
        and _ctx_text(m).lstrip().startswith(REFERENCE_PREFIX)
        and _ctx_text(m).startswith(REFERENCE_PREFIX) == (not blank)
    ]
    assert len(refs) == 1, "scenario data: exactly one tool message that is already a reference"
    assert len(_ctx_text(ctx_state.messages[refs[0]])) > ctx_state.min_chars, (
        "scenario data: the reference must be longer than minChars, so only the prefix rule can keep it"
    )
    ctx_state.subject = refs[0]


@given("offload 完成后 token 仍高于阈值")
def ctx_given_still_over(ctx_state: CtxState) -> None:
    assert ctx_state.offload_threshold is not None
    rest = [m for m in ctx_state.messages if m["role"] != "tool"]
    assert message_tokens(rest) >= ctx_state.offload_threshold, (
        "scenario data: the messages that cannot be offloaded alone must reach the threshold"
    )
    assert any(_ctx_offloadable(m, ctx_state.min_chars) for m in ctx_state.messages), (
        "scenario data: there must be something to offload"
    )


@when("调用 `offloadIfNeeded(messages)`")
@when("`offloadIfNeeded(messages)` 返回结果")
def ctx_when_offload(ctx_state: CtxState, synapse: contract.Implementation) -> None:
    assert ctx_state.offload_threshold is not None, "the scenario did not set the offload threshold"
    manager = synapse.context_manager(
        _ctx_storage(ctx_state, synapse),
        offload_threshold=ctx_state.offload_threshold,
        scan_ratio=ctx_state.scan_ratio,
        min_chars=ctx_state.min_chars,
        token_counter=ctx_state.counter,
    )
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    ctx_state.files_before = _ctx_files(ctx_state.offloaded_dir)
    try:
        ctx_state.offload_result = manager.offload_if_needed(ctx_state.messages)
    except Exception as exc:
        pytest.fail(f"offloadIfNeeded(messages) raised {exc!r}")


@when(parsers.parse("在实现进程只能写入 `{limit:d}` 字节以内的文件时调用 `offloadIfNeeded(messages)`"))
def ctx_when_offload_with_file_size_limit(
    ctx_state: CtxState, synapse: contract.Implementation, limit: int
) -> None:
    """A write past ``RLIMIT_FSIZE`` fails as on a full disk; the write up to the limit succeeds first, so a
    file of ``limit + 1`` bytes is cut one byte short before the failure."""
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, limit):
        ctx_when_offload(ctx_state, synapse)


@then(parsers.parse("第 `{kept:d}` 条消息应保持原文，第 `{offloaded:d}` 条应被卸载且文件内容完整"))
def ctx_then_one_kept_one_offloaded(ctx_state: CtxState, kept: int, offloaded: int) -> None:
    result = _ctx_result(ctx_state)
    assert result.messages[kept - 1] == ctx_state.snapshot[kept - 1], (
        f"message {kept} should stay as it was, got {result.messages[kept - 1].get('content')!r:.80}"
    )
    _ctx_assert_offloaded(ctx_state, offloaded - 1)
    path = _ctx_reference_path(result.messages[offloaded - 1])
    assert path is not None
    assert Path(path).read_text(encoding="utf-8") == _ctx_text(ctx_state.snapshot[offloaded - 1]), (
        f"the offload file of message {offloaded} should hold its whole text"
    )


@then(parsers.parse("卸载目录中应只有第 `{number:d}` 条消息的文件"))
def ctx_then_only_file_of(ctx_state: CtxState, number: int) -> None:
    path = _ctx_reference_path(_ctx_result(ctx_state).messages[number - 1])
    assert path is not None, f"message {number} should be an offload reference"
    found = _ctx_files(ctx_state.offloaded_dir)
    assert [_ctx_real(p) for p in found] == [_ctx_real(path)], (
        f"a failed write must leave no partial file: only {path} should be in offloaded/, found {found}"
    )


@given(parsers.parse("历史为 `{count:d}` 条各 `{length:d}` 个字符的 tool 消息加一条 user 消息"))
def ctx_given_many_tool_messages(ctx_state: CtxState, count: int, length: int) -> None:
    tools = [_ctx_text_message("tool", f"{n:03d}".ljust(length, "x")) for n in range(count)]
    ctx_state.messages = [*tools, _ctx_text_message("user", "继续")]


@when(parsers.parse("在实现进程只能再打开 `{headroom:d}` 个文件时调用 `offloadIfNeeded(messages)`"))
def ctx_when_offload_with_few_descriptors(
    ctx_state: CtxState, synapse: contract.Implementation, headroom: int
) -> None:
    """A descriptor each save leaves open is one fewer for the next: the saves after the leak fail."""
    _ctx_storage(ctx_state, synapse)
    limit = probes.lowest_free_descriptor(synapse) + headroom
    with probes.resource_limit(synapse, probes.RLIMIT_NOFILE, limit):
        ctx_when_offload(ctx_state, synapse)


@when(
    parsers.parse(
        "在实现进程只能写入 `{size:d}` 字节以内的文件且只能再打开 `{headroom:d}` 个文件时调用 "
        "`offloadIfNeeded(messages)`"
    )
)
def ctx_when_offload_with_both_limits(
    ctx_state: CtxState, synapse: contract.Implementation, size: int, headroom: int
) -> None:
    """Each failed save must release its descriptor too: a leak fails the saves after it."""
    _ctx_storage(ctx_state, synapse)
    limit = probes.lowest_free_descriptor(synapse) + headroom
    with (
        probes.resource_limit(synapse, probes.RLIMIT_NOFILE, limit),
        probes.resource_limit(synapse, probes.RLIMIT_FSIZE, size),
    ):
        ctx_when_offload(ctx_state, synapse)


@given(
    parsers.parse(
        "历史为 `{big:d}` 条各 `{big_length:d}` 个字符、`{small:d}` 条各 `{small_length:d}` 个字符的 "
        "tool 消息加一条 user 消息"
    )
)
def ctx_given_two_sizes_of_tool_messages(
    ctx_state: CtxState, big: int, big_length: int, small: int, small_length: int
) -> None:
    tools = [
        _ctx_text_message("tool", f"{n:03d}".ljust(length, "x"))
        for n, length in enumerate([big_length] * big + [small_length] * small)
    ]
    ctx_state.messages = [*tools, _ctx_text_message("user", "继续")]


@then(parsers.parse("前 `{kept:d}` 条消息应保持原文，其后的 tool 消息都应被卸载且文件内容完整"))
def ctx_then_first_kept_rest_offloaded(ctx_state: CtxState, kept: int) -> None:
    result = _ctx_result(ctx_state)
    assert result.messages[:kept] == ctx_state.snapshot[:kept], (
        f"the first {kept} messages, whose files could not be written whole, should stay as they were"
    )
    for index, message in enumerate(ctx_state.snapshot[kept:], start=kept):
        if message.get("role") != "tool":
            continue
        path = _ctx_reference_path(result.messages[index])
        assert path is not None, f"message {index + 1} should have been offloaded (a save before it leaked?)"
        assert Path(path).read_text(encoding="utf-8") == _ctx_text(message), (
            f"the offload file of message {index + 1} should hold its whole text"
        )


@then(parsers.parse("`offloadedCount` 应为 `{count:d}`"))
def ctx_then_offloaded_count(ctx_state: CtxState, count: int) -> None:
    result = _ctx_result(ctx_state)
    assert result.offloaded_count == count, f"offloadedCount should be {count}, got {result.offloaded_count}"


@then("返回消息应与输入一致")
def ctx_then_messages_unchanged(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    assert result.messages == ctx_state.snapshot, "the returned messages should equal the input messages"
    assert ctx_state.messages == ctx_state.snapshot, "offloadIfNeeded must not modify the input messages"


@then("offload 目录中不应写入任何文件")
def ctx_then_no_files(ctx_state: CtxState) -> None:
    written = sorted(set(_ctx_files(ctx_state.offloaded_dir)) - set(ctx_state.files_before))
    assert written == [], f"no offload file should have been written, found {written}"


@then("结果的 token 统计应与消息一致")
def ctx_then_token_figures(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    assert ctx_state.offload_threshold is not None
    previous = message_tokens(ctx_state.snapshot)
    current = message_tokens(result.messages)
    assert result.previous_tokens == previous, (
        f"previousTokens should count the input history ({previous}), got {result.previous_tokens}"
    )
    assert result.current_tokens == current, (
        f"currentTokens should count the returned history ({current}), got {result.current_tokens}"
    )
    assert result.freed_tokens == previous - current, (
        f"freedTokens should be previousTokens - currentTokens = {previous - current}, "
        f"got {result.freed_tokens}"
    )
    expected = current >= ctx_state.offload_threshold
    assert result.still_exceeds_threshold is expected, (
        f"stillExceedsThreshold should be {expected} (currentTokens {current}, threshold "
        f"{ctx_state.offload_threshold}), got {result.still_exceeds_threshold}"
    )


@then("结果的 token 统计应与消息一致且 `stillExceedsThreshold` 为 `false`")
def ctx_then_token_figures_not_exceeding(ctx_state: CtxState) -> None:
    ctx_then_token_figures(ctx_state)
    assert _ctx_result(ctx_state).still_exceeds_threshold is False, "stillExceedsThreshold should be false"
    assert _ctx_result(ctx_state).freed_tokens == 0, "nothing was offloaded, so freedTokens should be 0"


def _ctx_assert_offloaded(state: CtxState, index: int) -> None:
    result = _ctx_result(state)
    original = state.snapshot[index]
    replaced = result.messages[index]
    content = replaced.get("content")
    assert isinstance(content, list) and len(content) == 1 and content[0].get("type") == "text", (
        f"message {index} should be replaced by a single text part, got {content!r}"
    )
    text = content[0]["text"]
    assert text.startswith(f"{REFERENCE_PREFIX} "), (
        f"message {index} should read 'Tool result is at: <path>', got {text[:80]!r}"
    )
    path = Path(text[len(REFERENCE_PREFIX) + 1 :])
    assert path.is_absolute(), f"the reference should carry the full path of the file, got {path}"
    assert path.parent.resolve() == state.offloaded_dir.resolve(), (
        f"the offload file should be in {state.offloaded_dir}, got {path}"
    )
    assert path.is_file(), f"the referenced offload file {path} should exist"
    assert path.read_text(encoding="utf-8") == _ctx_text(original), (
        f"the offload file {path} should hold the original tool output"
    )
    assert replaced.get("role") == "tool", "the replaced message should stay a tool message"
    assert replaced.get("toolCallId") == original.get("toolCallId"), (
        "the replaced message should keep its toolCallId"
    )


@then("目标 tool 消息应被替换为 `Tool result is at: <path>`")
def ctx_then_replaced_by_reference(ctx_state: CtxState) -> None:
    assert ctx_state.subject is not None
    _ctx_assert_offloaded(ctx_state, ctx_state.subject)


@then("其余消息应保持原样")
def ctx_then_others_unchanged(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    assert len(result.messages) == len(ctx_state.snapshot), "offloading must not add or drop messages"
    for index, original in enumerate(ctx_state.snapshot):
        if index != ctx_state.subject:
            assert result.messages[index] == original, f"message {index} should be unchanged"
    assert ctx_state.messages == ctx_state.snapshot, "offloadIfNeeded must not modify the input messages"


@then("仅前半区满足条件的 tool 消息会被 offload")
def ctx_then_front_half_only(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    scan_end = math.floor(len(ctx_state.snapshot) * ctx_state.scan_ratio)
    assert len(result.messages) == len(ctx_state.snapshot), "offloading must not add or drop messages"
    expected = 0
    for index, original in enumerate(ctx_state.snapshot):
        if index < scan_end and _ctx_offloadable(original, ctx_state.min_chars):
            _ctx_assert_offloaded(ctx_state, index)
            expected += 1
        else:
            where = "in the back half (not scanned)" if index >= scan_end else "not eligible"
            assert result.messages[index] == original, f"message {index} is {where} and should be unchanged"
    assert result.offloaded_count == expected, (
        f"offloadedCount should be {expected}, got {result.offloaded_count}"
    )
    assert len(_ctx_files(ctx_state.offloaded_dir)) == expected, (
        f"exactly {expected} offload file(s) expected"
    )


@then("该消息应保持原样")
@then("该消息应保持不变")
def ctx_then_subject_unchanged(ctx_state: CtxState) -> None:
    assert ctx_state.subject is not None
    result = _ctx_result(ctx_state)
    assert result.messages[ctx_state.subject] == ctx_state.snapshot[ctx_state.subject], (
        f"tool message {ctx_state.subject} should be left exactly as it was"
    )


@then("`offloadedCount` 不增加")
def ctx_then_count_not_increased(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    others = sum(
        1
        for i, m in enumerate(ctx_state.snapshot)
        if i != ctx_state.subject and _ctx_offloadable(m, ctx_state.min_chars)
    )
    assert result.offloaded_count == others, (
        f"only the {others} long tool message(s) should count as offloaded, got {result.offloaded_count}"
    )
    assert len(_ctx_files(ctx_state.offloaded_dir)) == others, f"exactly {others} offload file(s) expected"


@then("`stillExceedsThreshold` 应为 `true`")
def ctx_then_still_exceeds(ctx_state: CtxState) -> None:
    result = _ctx_result(ctx_state)
    assert ctx_state.offload_threshold is not None
    assert result.still_exceeds_threshold is True, "stillExceedsThreshold should be true"
    assert result.current_tokens >= ctx_state.offload_threshold, (
        f"currentTokens {result.current_tokens} should still reach the threshold "
        f"{ctx_state.offload_threshold}"
    )


# --------------------------------------------------------------------------------------------------------
# Feature: Context compaction 触发规则
# --------------------------------------------------------------------------------------------------------


@given("一个注入了 ContextManager 与 ContextCompactor 替身的 `ContextOrchestrator`，配置为:")
def ctx_given_orchestrator(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    datatable: list[list[str]],
) -> None:
    header, values = datatable[0], datatable[1]
    settings = {k: int(v) for k, v in zip(header, values, strict=True)}
    ctx_state.orch_settings = settings
    ctx_state.orchestrator = synapse.context_orchestrator(
        synapse.scripted_llm("main-model"),
        token_counter=ctx_state.counter,
        sleep=recording_sleep,
        context_manager=ctx_state.offload_double,
        compactor=ctx_state.compact_double,
        offload_threshold=settings["offloadThreshold"],
        compact_trigger_threshold=settings["compactTriggerThreshold"],
        compact_cooldown_steps=settings["compactCooldownSteps"],
    )


@given("会话历史有 8 条消息且会话 offload 目录存在")
def ctx_given_orchestrator_history(ctx_state: CtxState) -> None:
    ctx_state.messages = _ctx_conversation(8)
    ctx_state.offload_dir = ctx_state.session_dir
    ctx_state.offload_dir.mkdir(parents=True, exist_ok=True)


@given("offload 替身报告:")
@given("offload 替身每一步都报告:")
def ctx_given_offload_report(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    header, values = datatable[0], datatable[1]
    ctx_state.offload_double.report = {k: int(v) for k, v in zip(header, values, strict=True)}
    report = ctx_state.offload_double.report
    assert report["freedTokens"] == report["previousTokens"] - report["currentTokens"], (
        "scenario data: freedTokens must be previousTokens - currentTokens"
    )


@given(
    parsers.re(
        r"`stillExceedsThreshold=(?P<flag>true|false)`"
        r"(?: (?:且|但) `freedTokens (?P<op><|>=) compactTriggerThreshold`)?"
    )
)
def ctx_given_still_exceeds_flag(ctx_state: CtxState, flag: str, op: str | None) -> None:
    report = ctx_state.offload_double.report
    still = flag == "true"
    assert still == (report["currentTokens"] >= ctx_state.orch_settings["offloadThreshold"]), (
        "scenario data: stillExceedsThreshold must agree with currentTokens and offloadThreshold"
    )
    trigger = ctx_state.orch_settings["compactTriggerThreshold"]
    if op == "<":
        assert report["freedTokens"] < trigger, "scenario data: freedTokens must be below the trigger"
    elif op == ">=":
        assert report["freedTokens"] >= trigger, "scenario data: freedTokens must reach the trigger"
    ctx_state.offload_double.still_exceeds = still


@given(parsers.re(r"此前的 compact 尝试: (?P<prior>从未尝试|恰好在 `compactCooldownSteps` 步之前尝试过)"))
def ctx_given_prior_attempt(ctx_state: CtxState, prior: str) -> None:
    ctx_state.prior_attempt = prior


def _ctx_orchestrate(state: CtxState) -> contract.OrchestratorResult:
    assert state.orchestrator is not None and state.offload_dir is not None
    try:
        return run(state.orchestrator.offload_if_needed(state.messages, state.offload_dir))
    except Exception as exc:
        pytest.fail(f"ContextOrchestrator.offloadIfNeeded raised {exc!r}")


def _ctx_run_steps(state: CtxState, steps: int, *, expect_compacts: int) -> None:
    for _ in range(steps):
        _ctx_orchestrate(state)
        assert len(state.compact_double.calls) == expect_compacts, (
            f"after step {len(state.offload_double.calls)} compact should have been called {expect_compacts} "
            f"time(s), got {len(state.compact_double.calls)}"
        )


@given("compact 冷却期已满足")
def ctx_given_cooldown_satisfied(ctx_state: CtxState) -> None:
    cooldown = ctx_state.orch_settings["compactCooldownSteps"]
    if ctx_state.prior_attempt == "从未尝试":
        assert ctx_state.offload_double.calls == [] and ctx_state.compact_double.calls == [], (
            "the orchestrator must not have run any step yet"
        )
        return
    # An attempt at step 1, then the steps inside the cooldown: the next step is exactly
    # compactCooldownSteps after the attempt.
    _ctx_run_steps(ctx_state, 1, expect_compacts=1)
    _ctx_run_steps(ctx_state, cooldown - 1, expect_compacts=1)


@given(parsers.re(r"compact 替身返回 `success=(?P<success>true|false)`"))
def ctx_given_compact_success(ctx_state: CtxState, success: str) -> None:
    ctx_state.compact_double.success = success == "true"


@given("上一次 compact 尝试发生在最近 `compactCooldownSteps` 内")
def ctx_given_recent_attempt(ctx_state: CtxState) -> None:
    _ctx_run_steps(ctx_state, 1, expect_compacts=1)


@when("`ContextOrchestrator.offloadIfNeeded(...)` 执行")
@when("执行 `offloadIfNeeded(...)`")
def ctx_when_orchestrate(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    ctx_state.compact_calls_before = len(ctx_state.compact_double.calls)
    ctx_state.log_mark = len(caplog.records)
    ctx_state.orch_result = _ctx_orchestrate(ctx_state)


@when("再次执行 `offloadIfNeeded(...)`")
def ctx_when_orchestrate_again(ctx_state: CtxState) -> None:
    ctx_state.compact_calls_before = len(ctx_state.compact_double.calls)
    steps_before = len(ctx_state.offload_double.calls)
    cooldown = ctx_state.orch_settings["compactCooldownSteps"]
    for _ in range(cooldown - 1):
        ctx_state.orch_result = _ctx_orchestrate(ctx_state)
    assert len(ctx_state.offload_double.calls) == steps_before + cooldown - 1, (
        "every offloadIfNeeded call should run the offload once"
    )


def _ctx_orch_result(state: CtxState) -> contract.OrchestratorResult:
    assert state.orch_result is not None, "ContextOrchestrator.offloadIfNeeded was not called"
    return state.orch_result


@then("应调用 `ContextCompactor.compact(...)`")
def ctx_then_compact_called(ctx_state: CtxState) -> None:
    calls = ctx_state.compact_double.calls
    assert len(calls) == ctx_state.compact_calls_before + 1, (
        f"compact should have been called once in this step, "
        f"got {len(calls) - ctx_state.compact_calls_before}"
    )
    assert ctx_state.offload_double.calls[-1] == ctx_state.messages, (
        "the offload should run on the history first"
    )
    assert calls[-1] == ctx_state.offload_double.returned[-1], (
        "compact should receive the history as left by the offload, not the history before it"
    )


@then("编排结果应采用 compact 替身返回的消息")
def ctx_then_uses_compacted(ctx_state: CtxState) -> None:
    result = _ctx_orch_result(ctx_state)
    record = ctx_state.compact_double.returned[-1]
    assert result.messages == record.messages, (
        "after a successful compact the compacted messages are the history"
    )
    assert result.compact_result is not None and result.compact_result.success, (
        "a successful compaction should be reported in compactResult"
    )


@then("不应调用 compact")
def ctx_then_compact_not_called(ctx_state: CtxState) -> None:
    assert ctx_state.offload_double.calls == [ctx_state.messages], (
        "the offload should have run once on the history"
    )
    assert ctx_state.compact_double.calls == [], (
        f"compact should not be called, it was called {len(ctx_state.compact_double.calls)} time(s)"
    )
    assert _ctx_orch_result(ctx_state).compact_result is None, (
        "no compaction ran, so compactResult should be None"
    )


@then("编排结果应采用 offload 替身返回的消息")
def ctx_then_uses_offloaded(ctx_state: CtxState) -> None:
    result = _ctx_orch_result(ctx_state)
    count = ctx_state.offload_double.report["offloadedCount"]
    if count > 0:
        assert result.messages == ctx_state.offload_double.returned[-1], (
            "when messages were offloaded, the offloaded history should be returned"
        )
        assert result.offload_result is not None and result.offload_result.offloaded_count == count, (
            f"offloadResult should report offloadedCount={count}"
        )
    else:
        assert result.messages == ctx_state.messages, "with nothing offloaded the history should be returned"
        assert result.offload_result is None, "with nothing offloaded offloadResult should be None"


@then("日志应记录 context 卸载后仍超阈值的 warning")
def ctx_then_still_over_warning(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    assert _ctx_synapse_warnings(caplog, ctx_state.log_mark), (
        "a WARNING from a synapse.* logger should say the context still exceeds the threshold"
    )


@then("日志不应记录 context 仍超阈值的 warning")
def ctx_then_no_warning(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    warnings = _ctx_synapse_warnings(caplog, ctx_state.log_mark)
    assert warnings == [], (
        f"no warning expected below the threshold, got {[w.getMessage() for w in warnings]}"
    )


@then("不应再次触发 compact")
def ctx_then_no_second_compact(ctx_state: CtxState) -> None:
    assert len(ctx_state.compact_double.calls) == 1, (
        f"within compactCooldownSteps of the last attempt compact must not run again, it ran "
        f"{len(ctx_state.compact_double.calls)} time(s) in total"
    )


@then("冷却期满后的下一步应再次触发 compact")
def ctx_then_compact_after_cooldown(ctx_state: CtxState) -> None:
    _ctx_run_steps(ctx_state, 1, expect_compacts=2)


@when("执行 `ContextOrchestrator.forceCompact(...)`")
def ctx_when_force_compact(ctx_state: CtxState) -> None:
    assert ctx_state.orchestrator is not None and ctx_state.offload_dir is not None
    ctx_state.compact_calls_before = len(ctx_state.compact_double.calls)
    ctx_state.steps_before_force = len(ctx_state.offload_double.calls)
    try:
        ctx_state.compact_results.append(
            run(ctx_state.orchestrator.force_compact(ctx_state.messages, ctx_state.offload_dir))
        )
    except Exception as exc:
        pytest.fail(f"ContextOrchestrator.forceCompact raised {exc!r}")


@then("`forceCompact` 应把历史直接交给 compact 替身（不先 offload）并返回它的结果")
def ctx_then_force_compacted(ctx_state: CtxState) -> None:
    calls = ctx_state.compact_double.calls
    assert len(calls) == ctx_state.compact_calls_before + 1, (
        f"forceCompact should call compact once, got {len(calls) - ctx_state.compact_calls_before} call(s)"
    )
    assert calls[-1] == ctx_state.messages, "forceCompact should hand the history to compact as it is"
    assert len(ctx_state.offload_double.calls) == ctx_state.steps_before_force, (
        "forceCompact should not run the offload"
    )
    result, record = ctx_state.compact_results[-1], ctx_state.compact_double.returned[-1]
    assert result.success and result.messages == record.messages, (
        "forceCompact should return the compactor's result"
    )


@given(parsers.parse("接下来的 {steps:d} 次 `offloadIfNeeded(...)` 都不应触发 compact"))
@then(parsers.parse("接下来的 {steps:d} 次 `offloadIfNeeded(...)` 都不应触发 compact"))
def ctx_steps_without_compact(ctx_state: CtxState, steps: int) -> None:
    _ctx_run_steps(ctx_state, steps, expect_compacts=len(ctx_state.compact_double.calls))


@then("再下一次 `offloadIfNeeded(...)` 应触发 compact")
def ctx_next_step_compacts(ctx_state: CtxState) -> None:
    _ctx_run_steps(ctx_state, 1, expect_compacts=len(ctx_state.compact_double.calls) + 1)


# --------------------------------------------------------------------------------------------------------
# Features: Offload 引用恢复安全边界, 压缩重试与回退, 卸载文件清理容错 (and the split fix)
# --------------------------------------------------------------------------------------------------------


@given('一个会话 offload 目录与一个使用脚本化模型 "main-model" 的 ContextCompactor（`preserveCount=5`）')
def ctx_given_compactor(
    ctx_state: CtxState, synapse: contract.Implementation, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SYNAPSE_COMPACT_MODEL", raising=False)
    ctx_state.offloaded_dir.mkdir(parents=True)
    ctx_state.outside_dir.mkdir()
    ctx_state.llm = synapse.scripted_llm("main-model")
    ctx_state.preserve_count = 5


@given("会话目录经由一个符号链接到达（如放在另一块磁盘上的会话目录）")
def ctx_given_session_dir_through_link(ctx_state: CtxState) -> None:
    real = ctx_state.root.parent / "sessions-on-another-disk" / ctx_state.session_dir.name
    real.parent.mkdir()
    ctx_state.session_dir.rename(real)
    ctx_state.session_dir.symlink_to(real, target_is_directory=True)
    assert ctx_state.offloaded_dir.is_dir() and ctx_state.session_dir.is_symlink()


@given("offload 文件:")
def ctx_given_offload_files(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        path = Path(ctx_state.expand(cells["file"]))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(cells["content"], encoding="utf-8")
        ctx_state.files[str(path)] = cells["content"]
        if cells.get("删除时抛错") == "是":
            ctx_state.deny.append(str(path))


@given("卸载目录内有一个指向 `{outside}/secret.txt` 的符号链接 `{offloaded}/link.txt`")
def ctx_given_symlink(ctx_state: CtxState) -> None:
    (ctx_state.offloaded_dir / "link.txt").symlink_to(ctx_state.outside_dir / "secret.txt")


@given("历史中同时存在 `tool` 与 `user` 消息且都包含 `Tool result is at:` 文本")
def ctx_given_mixed_references(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    roles = {m["role"] for m in ctx_state.messages if _ctx_reference_path(m)}
    assert {"tool", "user"} <= roles, "scenario data: tool and user messages must both hold references"


@given("`tool` 消息引用了 offload 目录之外的绝对路径")
def ctx_given_outside_reference(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    base = _ctx_real(str(ctx_state.offloaded_dir))
    for index, message in enumerate(ctx_state.messages):
        path = _ctx_reference_path(message) if message["role"] == "tool" else None
        if path and os.path.commonpath([base, _ctx_real(path)]) != base:
            ctx_state.subject = index
            break
    assert ctx_state.subject is not None, "scenario data: a tool message must reference a file outside"
    assert Path(_ctx_real(str(ctx_state.outside_dir / "secret.txt"))).is_file(), "the outside file must exist"


@when("执行压缩前的引用恢复")
@when("执行内容恢复")
def ctx_when_restore(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    ctx_fs: CtxFs,
) -> None:
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    watched = [p for p in {*ctx_state.files, str(ctx_state.outside_dir / "secret.txt")} if Path(p).is_file()]
    try:
        with probes.watch_files(watched) as ctx_fs.watch:
            ctx_state.restored = compactor.restore_offloaded_content(ctx_state.messages)
    except Exception as exc:
        pytest.fail(f"restoring offloaded content raised {exc!r}")


def _ctx_restored(state: CtxState) -> list[Message]:
    assert state.restored is not None, "restore was not run"
    assert len(state.restored) == len(state.snapshot), "restoring must not add or drop messages"
    return state.restored


@then("只应替换 `tool` 消息内容")
def ctx_then_tool_restored(ctx_state: CtxState) -> None:
    restored = _ctx_restored(ctx_state)
    replaced = 0
    for index, original in enumerate(ctx_state.snapshot):
        if original["role"] != "tool":
            continue
        path = _ctx_reference_path(original)
        assert path is not None and path in ctx_state.files, (
            "scenario data: tool messages reference offload files"
        )
        expected = {**original, "content": [{"type": "text", "text": ctx_state.files[path]}]}
        assert restored[index] == expected, (
            f"tool message {index} should carry the content of {path} (role and toolCallId kept), "
            f"got {restored[index]!r}"
        )
        replaced += 1
    assert replaced > 0, "scenario data: there must be a tool reference to restore"


@then("非 `tool` 消息应保持原文不变")
def ctx_then_non_tool_unchanged(ctx_state: CtxState) -> None:
    restored = _ctx_restored(ctx_state)
    for index, original in enumerate(ctx_state.snapshot):
        if original["role"] != "tool":
            assert restored[index] == original, (
                f"{original['role']} message {index} should keep its reference text, got {restored[index]!r}"
            )


@then("输入的历史不应被修改")
def ctx_then_input_untouched(ctx_state: CtxState) -> None:
    assert ctx_state.messages == ctx_state.snapshot, "restoring must work on a copy, the history was modified"


@then("应跳过该引用不读取文件")
def ctx_then_outside_not_read(ctx_state: CtxState, ctx_fs: CtxFs) -> None:
    assert ctx_state.subject is not None
    reference = _ctx_reference_path(ctx_state.snapshot[ctx_state.subject])
    assert reference is not None
    forbidden = {
        os.path.normpath(reference),
        os.path.normpath(str(ctx_state.outside_dir / "secret.txt")),
        _ctx_real(reference),
    }
    assert ctx_fs.watch is not None
    opened = [f"{p}: {', '.join(ctx_fs.watch.touched(p))}" for p in forbidden if ctx_fs.watch.opened(p)]
    assert opened == [], f"the out-of-scope file must not be opened, it was: {opened}"
    restored = _ctx_restored(ctx_state)
    assert "目录外的机密内容" not in _ctx_text(restored[ctx_state.subject]), "out-of-scope content leaked"


@then("原消息内容保持不变")
def ctx_then_subject_kept(ctx_state: CtxState) -> None:
    assert ctx_state.subject is not None
    restored = _ctx_restored(ctx_state)
    assert restored[ctx_state.subject] == ctx_state.snapshot[ctx_state.subject], (
        "the message referencing an out-of-scope path should stay exactly as it was"
    )


@then("目录内的引用仍应被恢复")
def ctx_then_inside_restored(ctx_state: CtxState, ctx_fs: CtxFs) -> None:
    restored = _ctx_restored(ctx_state)
    inside = str(ctx_state.offloaded_dir / "inside.txt")
    index = next(i for i, m in enumerate(ctx_state.snapshot) if _ctx_reference_path(m) == inside)
    assert _ctx_text(restored[index]) == ctx_state.files[inside], "the in-scope reference should be restored"
    assert ctx_fs.watch is not None and ctx_fs.watch.opened(inside), (
        "the in-scope file was restored but the kernel saw no process open it: the watch that proves the "
        "out-of-scope file unread is not working here"
    )


@given("`tool` 消息引用的 offload 文件已不存在")
def ctx_given_missing_reference(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    refs = [i for i, m in enumerate(ctx_state.messages) if m["role"] == "tool" and _ctx_reference_path(m)]
    assert len(refs) == 1, "scenario data: exactly one tool reference"
    path = _ctx_reference_path(ctx_state.messages[refs[0]])
    assert path is not None and not Path(path).exists(), "scenario data: the referenced file must not exist"
    ctx_state.subject = refs[0]


@given(parsers.parse('模型的总结回复为 "{text}"'))
def ctx_given_summary_reply(ctx_state: CtxState, text: str) -> None:
    """``\\n`` for a line break, ``{U+XXXX}`` for a character the feature cannot show (CTX-110)."""
    ctx_state.summary = cells.expand(text.replace("\\n", "\n"))
    _ctx_llm(ctx_state).reply_text(ctx_state.summary)


@when("执行恢复流程")
@when("执行 compact 清理阶段")
@when("执行 compact")
def ctx_when_compact(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    caplog: pytest.LogCaptureFixture,
) -> None:
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    ctx_state.log_mark = len(caplog.records)
    try:
        ctx_state.compact_result = run(compactor.compact(ctx_state.messages))
    except Exception as exc:
        pytest.fail(f"compact must not raise (failures are reported with success=false), it raised {exc!r}")


@then("该消息应替换为 `[Content unavailable: <path>]`")
def ctx_then_placeholder(ctx_state: CtxState) -> None:
    assert ctx_state.subject is not None
    llm = _ctx_llm(ctx_state)
    assert len(llm.calls) == 1, f"the summary model should be called once, got {len(llm.calls)} call(s)"
    original = ctx_state.snapshot[ctx_state.subject]
    path = _ctx_reference_path(original)
    sent = [m for m in llm.calls[0].messages if m.get("toolCallId") == original["toolCallId"]]
    assert len(sent) == 1, "the tool message should be sent to the summary model"
    expected = [{"type": "text", "text": f"[Content unavailable: {path}]"}]
    assert sent[0]["content"] == expected, (
        f"the missing file should become {expected!r}, got {sent[0]['content']!r}"
    )


def _ctx_assert_compacted(state: CtxState, preserved: int) -> contract.CompactResult:
    result = _ctx_compacted(state)
    assert result.success is True, "compaction should succeed"
    assert state.summary is not None
    expected_head = _ctx_text_message("user", COMPRESSED_PREFIX + state.summary)
    assert result.messages[0] == expected_head, (
        "the first message should be the user message '[Compressed History]\\n\\n<summary>', "
        f"got {result.messages[0]!r}"
    )
    assert result.messages[1:] == state.snapshot[len(state.snapshot) - preserved :], (
        f"the last {preserved} messages should be kept unchanged after the summary"
    )
    assert result.preserved_count == preserved, (
        f"preservedCount should be {preserved}, got {result.preserved_count}"
    )
    previous, current = message_tokens(state.snapshot), message_tokens(result.messages)
    assert (result.previous_tokens, result.current_tokens, result.freed_tokens) == (
        previous,
        current,
        previous - current,
    ), "previousTokens/currentTokens/freedTokens should count the history before and after"
    return result


@then("压缩流程不应因此中断")
def ctx_then_compaction_completed(ctx_state: CtxState) -> None:
    _ctx_assert_compacted(ctx_state, ctx_state.preserve_count)


@given("末尾保留消息中仍包含 `Tool result is at: <file>` 引用")
def ctx_given_tail_reference(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.messages = _ctx_parse_messages(ctx_state, datatable)
    tail_start = len(ctx_state.messages) - ctx_state.preserve_count
    refs = [
        i
        for i, m in enumerate(ctx_state.messages)
        if i >= tail_start and m["role"] == "tool" and _ctx_reference_path(m)
    ]
    assert len(refs) == 1, "scenario data: exactly one tool reference in the kept tail"
    ctx_state.subject = refs[0]


def _ctx_subject_file(state: CtxState) -> str:
    assert state.subject is not None
    path = _ctx_reference_path(state.snapshot[state.subject])
    assert path is not None and path in state.files
    return path


@then("该文件不应被删除")
def ctx_then_file_kept(ctx_state: CtxState) -> None:
    path = _ctx_subject_file(ctx_state)
    assert Path(path).is_file(), f"{path} is still referenced by the kept tail and must not be deleted"
    assert Path(path).read_text(encoding="utf-8") == ctx_state.files[path], f"{path} should keep its content"
    deleted = {_ctx_real(p) for p in _ctx_compacted(ctx_state).deleted_files}
    assert _ctx_real(path) not in deleted, f"deletedFiles must not list the retained file {path}"


@then("保留区消息应继续保持路径引用形式")
def ctx_then_tail_keeps_reference(ctx_state: CtxState) -> None:
    result = _ctx_assert_compacted(ctx_state, ctx_state.preserve_count)
    path = _ctx_subject_file(ctx_state)
    tail_refs = [m for m in result.messages[1:] if m["role"] == "tool"]
    assert [_ctx_text(m) for m in tail_refs] == [f"{REFERENCE_PREFIX} {path}"], (
        "the kept tool message should still read 'Tool result is at: <path>'"
    )


@then("未被保留区引用的卸载文件应被删除并列入 `deletedFiles`")
def ctx_then_others_deleted(ctx_state: CtxState) -> None:
    kept = _ctx_subject_file(ctx_state)
    others = {_ctx_real(p) for p in ctx_state.files if p != kept}
    for path in others:
        assert not Path(path).exists(), f"{path} is not referenced by the kept tail and should be deleted"
    deleted = [_ctx_real(p) for p in _ctx_compacted(ctx_state).deleted_files]
    assert sorted(deleted) == sorted(others), (
        f"deletedFiles should list exactly {sorted(others)}, got {deleted}"
    )


@given(parsers.parse("历史消息为 {count:d} 条普通对话消息"))
def ctx_given_conversation(ctx_state: CtxState, count: int) -> None:
    ctx_state.messages = _ctx_conversation(count)


@given(parsers.parse("ContextCompactor 的 `retryCount={count:d}`"))
def ctx_given_retry_count(ctx_state: CtxState, count: int) -> None:
    ctx_state.retry_count = count


@given("总结生成第一次调用失败且 `retryCount>=2`")
def ctx_given_first_attempt_fails(ctx_state: CtxState) -> None:
    assert ctx_state.retry_count >= 2, "scenario data: retryCount must allow a second attempt"
    _ctx_llm(ctx_state).fail(RuntimeError(SUMMARY_ERROR), times=1)


@given("总结生成连续失败直至重试耗尽")
def ctx_given_all_attempts_fail(ctx_state: CtxState) -> None:
    _ctx_llm(ctx_state).fail(RuntimeError(SUMMARY_ERROR), times=ctx_state.retry_count)


@then("应按重试策略进行下一次调用")
def ctx_then_retried(
    ctx_state: CtxState, recording_sleep: RecordingSleep, caplog: pytest.LogCaptureFixture
) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == 2, (
        f"after one failure the summary should be asked once more, got {len(calls)} call(s)"
    )
    assert (calls[1].system_prompt, list(calls[1].messages)) == (
        calls[0].system_prompt,
        list(calls[0].messages),
    ), "the retry should send the same summary request"
    assert recording_sleep.delays == [pytest.approx(0.1)], (
        f"one wait of 0.1 s (0.1 x attempt) through the injected sleep expected, got {recording_sleep.delays}"
    )
    assert _ctx_synapse_warnings(caplog, ctx_state.log_mark), (
        "the failed attempt should be logged as a WARNING"
    )


@then("后续成功时整体压缩结果应为 `success=true`")
def ctx_then_success_after_retry(ctx_state: CtxState) -> None:
    _ctx_assert_compacted(ctx_state, ctx_state.preserve_count)


@then("返回应为 `success=false`")
def ctx_then_failed(ctx_state: CtxState) -> None:
    assert _ctx_compacted(ctx_state).success is False, "compaction should report success=false"


@then("`messages` 应等于原始历史且 `freedTokens=0`")
def ctx_then_original_history(ctx_state: CtxState) -> None:
    result = _ctx_compacted(ctx_state)
    assert result.messages == ctx_state.snapshot, "a failed compaction should return the original history"
    assert ctx_state.messages == ctx_state.snapshot, "a failed compaction must not modify the history"
    assert result.freed_tokens == 0, f"freedTokens should be 0, got {result.freed_tokens}"
    tokens = message_tokens(ctx_state.snapshot)
    assert (result.previous_tokens, result.current_tokens) == (tokens, tokens), (
        f"previousTokens and currentTokens should both be the history's {tokens} tokens"
    )


@then(parsers.parse("模型应被调用 `{count:d}` 次且每次失败都记录 warning"))
def ctx_then_attempts(
    ctx_state: CtxState, count: int, recording_sleep: RecordingSleep, caplog: pytest.LogCaptureFixture
) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == count, f"retryCount={count} means {count} attempts in total, got {len(calls)}"
    expected = [pytest.approx(0.1 * attempt) for attempt in range(1, count)]
    assert recording_sleep.delays == expected, (
        f"waits of 0.1 x attempt between attempts expected ({[0.1 * a for a in range(1, count)]}), "
        f"got {recording_sleep.delays}"
    )
    warnings = _ctx_synapse_warnings(caplog, ctx_state.log_mark)
    assert len(warnings) >= count, (
        f"each of the {count} failed attempts should log a WARNING, got {len(warnings)}"
    )


@then("offload 目录中的文件不应被删除")
def ctx_then_files_untouched(ctx_state: CtxState) -> None:
    for path, content in ctx_state.files.items():
        assert Path(path).is_file() and Path(path).read_text(encoding="utf-8") == content, (
            f"{path} was touched"
        )
    assert _ctx_compacted(ctx_state).deleted_files == [], "deletedFiles should be empty"


@given("历史消息数量 `<= preserveCount`")
def ctx_given_short_history(ctx_state: CtxState) -> None:
    assert len(ctx_state.messages) <= ctx_state.preserve_count, (
        "scenario data: history no longer than preserveCount"
    )


@then("不应触发 LLM 总结调用")
def ctx_then_no_llm_call(ctx_state: CtxState) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert list(calls) == [], f"no summary call expected for a short history, got {len(calls)}"


@then("结果应保持原历史并返回 `freedTokens=0`")
def ctx_then_short_history_kept(ctx_state: CtxState) -> None:
    result = _ctx_compacted(ctx_state)
    assert result.messages == ctx_state.snapshot, "a skipped compaction should return the history unchanged"
    assert result.freed_tokens == 0, f"freedTokens should be 0, got {result.freed_tokens}"
    assert result.success is True, "skipping a short history is not a failure (success=true)"
    assert result.preserved_count == len(ctx_state.snapshot), (
        "every message is kept (preservedCount = length)"
    )
    tokens = message_tokens(ctx_state.snapshot)
    assert (result.previous_tokens, result.current_tokens) == (tokens, tokens), (
        "token figures should be unchanged"
    )


@given("compact options 未设置 `model`")
def ctx_given_no_compact_model(ctx_state: CtxState) -> None:
    ctx_state.compact_model = None


@given(parsers.parse('compact options 的 `model` 为 "{model}"'))
def ctx_given_compact_model(ctx_state: CtxState, model: str) -> None:
    """``\\n`` and ``{U+0020}`` in the model name stand for a line break and a space."""
    ctx_state.compact_model = cells.text(model)


@then(parsers.parse("总结应由模型 `{model}` 生成，只在它不是当前模型时调用 `withModel`"))
def ctx_then_summary_model(ctx_state: CtxState, model: str) -> None:
    llm = _ctx_llm(ctx_state)
    assert [c.model for c in llm.calls] == [model], (
        f"the summary should be asked once from model {model!r}, got {[c.model for c in llm.calls]}"
    )
    switched = [model] if model != llm.model_name else []
    assert list(llm.with_model_calls) == switched, (
        f"withModel should be called with {switched} (the configured model, trimmed, only when it is not "
        f"the current model {llm.model_name!r}), got {list(llm.with_model_calls)}"
    )


@then("不应调用 `withModel` 切换模型")
def ctx_then_no_with_model(ctx_state: CtxState) -> None:
    llm = _ctx_llm(ctx_state)
    assert list(llm.with_model_calls) == [], (
        f"withModel should not be called, got {list(llm.with_model_calls)}"
    )
    assert [c.model for c in llm.calls] == ["main-model"], (
        "the summary should be asked once from the current model 'main-model', "
        f"got {[c.model for c in llm.calls]}"
    )


@then("仍应正常完成摘要生成")
def ctx_then_summary_done(ctx_state: CtxState) -> None:
    _ctx_assert_compacted(ctx_state, ctx_state.preserve_count)
    call = _ctx_llm(ctx_state).calls[0]
    assert call.max_tokens == math.ceil(ctx_state.target_tokens * 1.2), (
        "the summary call should allow ceil(targetTokens x 1.2) = "
        f"{math.ceil(ctx_state.target_tokens * 1.2)} "
        f"tokens, got {call.max_tokens}"
    )
    assert str(ctx_state.target_tokens) in call.system_prompt, (
        "the summary prompt should state the target length"
    )
    assert list(call.tools) == [], "the summary call should offer no tools"


@given("offload 目录中多个文件且其中一个删除会抛错")
def ctx_given_undeletable(ctx_state: CtxState, datatable: list[list[str]], ctx_fs: CtxFs) -> None:
    ctx_given_offload_files(ctx_state, datatable)
    assert len(ctx_state.deny) == 1 and len(ctx_state.files) >= 3, (
        "scenario data: several files, one undeletable"
    )
    for path in ctx_state.deny:
        ctx_fs.stack.enter_context(probes.undeletable(path))


@given("`retainedFiles` 集合包含当前会话仍被引用的文件")
def ctx_given_retained(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    ctx_state.retained = [ctx_state.expand(row[0]) for row in datatable[1:]]
    assert all(p in ctx_state.files for p in ctx_state.retained), "scenario data: retained files must exist"


@when("执行清理")
@when("执行 cleanupOffloadedFiles")
def ctx_when_cleanup(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    caplog: pytest.LogCaptureFixture,
) -> None:
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.log_mark = len(caplog.records)
    try:
        ctx_state.deleted = compactor.cleanup_offloaded_files(set(ctx_state.retained))
    except Exception as exc:
        ctx_state.error = exc


def _ctx_deleted(state: CtxState) -> list[str]:
    if state.error is not None:
        pytest.fail(f"cleanupOffloadedFiles must not raise, it raised {state.error!r}")
    assert state.deleted is not None
    return state.deleted


@then("其余可删文件应继续删除成功")
def ctx_then_rest_deleted(ctx_state: CtxState) -> None:
    deleted = _ctx_deleted(ctx_state)
    deletable = sorted(_ctx_real(p) for p in ctx_state.files if p not in ctx_state.deny)
    for path in deletable:
        assert not Path(path).exists(), f"{path} should have been deleted despite the other file's failure"
    for path in ctx_state.deny:
        assert Path(path).is_file(), f"{path} could not be deleted and should still be there"
    assert sorted(_ctx_real(p) for p in deleted) == deletable, (
        f"the deleted list should hold exactly the deleted files {deletable}, got {deleted}"
    )


@then("流程仅记录告警而不抛出整体异常")
def ctx_then_only_warning(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    _ctx_deleted(ctx_state)
    warnings = [probes.logged_text(r) for r in _ctx_synapse_warnings(caplog, ctx_state.log_mark)]
    assert warnings, "the failed deletion should be logged as a WARNING"
    for path in ctx_state.deny:
        assert any(Path(path).name in message for message in warnings), (
            f"a warning should name the file that could not be deleted ({Path(path).name}): {warnings}"
        )


@then("被引用文件不应删除")
def ctx_then_retained_kept(ctx_state: CtxState) -> None:
    _ctx_deleted(ctx_state)
    for path in ctx_state.retained:
        assert Path(path).is_file(), f"{path} is in retainedFiles and must not be deleted"
        assert Path(path).read_text(encoding="utf-8") == ctx_state.files[path], (
            f"{path} should keep its content"
        )


@then("返回的 deleted 列表不应包含这些路径")
def ctx_then_retained_not_listed(ctx_state: CtxState) -> None:
    deleted = sorted(_ctx_real(p) for p in _ctx_deleted(ctx_state))
    retained = {_ctx_real(p) for p in ctx_state.retained}
    assert not retained & set(deleted), f"the deleted list must not contain retained files, got {deleted}"
    others = sorted(_ctx_real(p) for p in ctx_state.files if p not in ctx_state.retained)
    assert deleted == others, (
        f"every other offload file should be deleted and listed: {others}, got {deleted}"
    )
    for path in others:
        assert not Path(path).exists(), f"{path} is not retained and should be deleted"


def _ctx_protocol_problems(messages: list[Message]) -> list[str]:
    """Tool results not directly after their assistant round, and tool calls without results."""
    problems: list[str] = []
    open_calls: set[str] = set()
    for index, message in enumerate(messages):
        if message.get("role") == "tool":
            call_id = message.get("toolCallId")
            if call_id not in open_calls:
                problems.append(
                    f"message {index}: tool result {call_id!r} has no assistant tool call before it"
                )
            open_calls.discard(str(call_id))
            continue
        if open_calls:
            problems.append(f"message {index}: tool call(s) {sorted(open_calls)} have no result")
        open_calls = {str(c["id"]) for c in message.get("toolCalls") or []}
    if open_calls:
        problems.append(f"end: tool call(s) {sorted(open_calls)} have no result")
    return problems


@then("压缩结果中的每条 tool 消息都应紧随发起它的 assistant toolCall 所在的工具轮次")
def ctx_then_tail_protocol(ctx_state: CtxState) -> None:
    result = _ctx_compacted(ctx_state)
    assert result.success is True, "compaction should succeed"
    problems = _ctx_protocol_problems(result.messages)
    assert problems == [], f"the compacted history splits a tool round: {problems}"


@then("发送给总结模型的历史不应以未得到结果的 toolCalls 结尾")
def ctx_then_summary_protocol(ctx_state: CtxState) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == 1, f"one summary call expected, got {len(calls)}"
    problems = _ctx_protocol_problems(list(calls[0].messages))
    assert problems == [], f"the history sent to the summary model splits a tool round: {problems}"


@then(parsers.parse("`preservedCount` 应为 `{count:d}`"))
def ctx_then_preserved(ctx_state: CtxState, count: int) -> None:
    _ctx_assert_compacted(ctx_state, count)


# --------------------------------------------------------------------------------------------------------
# Beyond seed: defaults, environment variables, the orchestrator on real components, file naming
# --------------------------------------------------------------------------------------------------------

CONTEXT_ENV = (
    "SYNAPSE_OFFLOAD_THRESHOLD",
    "SYNAPSE_OFFLOAD_SCAN_RATIO",
    "SYNAPSE_OFFLOAD_MIN_CHARS",
    "SYNAPSE_COMPACT_TRIGGER_THRESHOLD",
    "SYNAPSE_COMPACT_TARGET_TOKENS",
    "SYNAPSE_COMPACT_PRESERVE_COUNT",
    "SYNAPSE_COMPACT_RETRY_COUNT",
    "SYNAPSE_COMPACT_MODEL",
    "SYNAPSE_COMPACT_COOLDOWN_STEPS",
)


@dataclass
class CtxProbe:
    """One orchestrator with its own doubles, for one question about its thresholds."""

    orchestrator: contract.ContextOrchestrator
    offload: CtxOffloadDouble
    compact: CtxCompactDouble


@given(parsers.re(r"与 context 相关的 SYNAPSE_\* 环境变量为 `(?P<env>[^`]*)`"))
def ctx_given_env(monkeypatch: pytest.MonkeyPatch, env: str) -> None:
    for name in CONTEXT_ENV:
        monkeypatch.delenv(name, raising=False)
    if env.strip() == "(未设置)":
        return
    for assignment in env.split():
        name, _, value = assignment.partition("=")
        assert name in CONTEXT_ENV, f"scenario data: unknown variable {name}"
        monkeypatch.setenv(name, cells.expand(value))


@when(
    parsers.re(
        r"用替身 ContextManager 与 ContextCompactor 创建 `ContextOrchestrator` (?:且不传入阈值|"
        r"并传入 `compactTriggerThreshold=(?P<trigger>\d+)` 与 `compactCooldownSteps=(?P<cooldown>\d+)`)$"
    )
)
def ctx_when_probes(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    trigger: str | None,
    cooldown: str | None,
) -> None:
    """Thresholds passed when creating the orchestrator are its own; those left out come from the
    environment."""
    ctx_state.session_dir.mkdir(parents=True, exist_ok=True)
    passed: dict[str, int] = {}
    if trigger is not None and cooldown is not None:
        passed = {"compact_trigger_threshold": int(trigger), "compact_cooldown_steps": int(cooldown)}
    probes: list[CtxProbe] = []
    for _ in range(3):
        offload, compact = CtxOffloadDouble(), CtxCompactDouble()
        orchestrator = synapse.context_orchestrator(
            synapse.scripted_llm("main-model"),
            token_counter=ctx_state.counter,
            sleep=recording_sleep,
            context_manager=offload,
            compactor=compact,
            **passed,
        )
        probes.append(CtxProbe(orchestrator, offload, compact))
    ctx_state.probes = probes
    ctx_state.messages = _ctx_conversation(8)


def _ctx_probe_steps(state: CtxState, probe: CtxProbe, freed: int, steps: int) -> list[int]:
    """Run ``steps`` orchestrator steps with an offload that leaves 160000 tokens (over the default
    150000) after freeing ``freed``; returns the number of compact calls after each step."""
    probe.offload.report = {
        "offloadedCount": 0,
        "previousTokens": 160000 + freed,
        "currentTokens": 160000,
        "freedTokens": freed,
    }
    probe.offload.still_exceeds = True
    counts: list[int] = []
    for _ in range(steps):
        try:
            run(probe.orchestrator.offload_if_needed(state.messages, state.session_dir))
        except Exception as exc:
            pytest.fail(f"ContextOrchestrator.offloadIfNeeded raised {exc!r}")
        counts.append(len(probe.compact.calls))
    return counts


@then(parsers.parse("offload 仍超阈值且释放 `{freed:d}` tokens 时应触发 compact"))
def ctx_then_probe_triggers(ctx_state: CtxState, freed: int) -> None:
    counts = _ctx_probe_steps(ctx_state, ctx_state.probes[0], freed, 1)
    assert counts == [1], f"freeing {freed} tokens is below the trigger threshold, compact should run once"


@then(parsers.parse("offload 仍超阈值且释放 `{freed:d}` tokens 时不应触发 compact"))
def ctx_then_probe_does_not_trigger(ctx_state: CtxState, freed: int) -> None:
    counts = _ctx_probe_steps(ctx_state, ctx_state.probes[1], freed, 1)
    assert len(ctx_state.probes[1].offload.calls) == 1, "the offload should have run"
    assert counts == [0], f"freeing {freed} tokens reaches the trigger threshold, compact must not run"


@then(parsers.parse("一次 compact 尝试后应在第 `{cooldown:d}` 步后才再次触发 compact"))
def ctx_then_probe_cooldown(ctx_state: CtxState, cooldown: int) -> None:
    counts = _ctx_probe_steps(ctx_state, ctx_state.probes[2], 0, cooldown + 1)
    expected = [1] * cooldown + [2]
    assert counts == expected, (
        f"with compactCooldownSteps={cooldown} compact should run at step 1 and again at step {cooldown + 1} "
        f"(compact calls after each step: expected {expected}, got {counts})"
    )


@given(parsers.parse('一个会话 offload 目录与脚本化模型 "main-model"，其总结第一次失败、第二次回复 "{text}"'))
def ctx_given_flaky_summary(ctx_state: CtxState, synapse: contract.Implementation, text: str) -> None:
    ctx_state.llm = synapse.scripted_llm("main-model")
    ctx_state.summary = text.replace("\\n", "\n")
    ctx_state.llm.fail(RuntimeError(SUMMARY_ERROR)).reply_text(ctx_state.summary)


@when("用真实组件创建 `ContextOrchestrator` 并执行 `offloadIfNeeded(history, offloadDir)`")
def ctx_when_real_orchestrator(
    ctx_state: CtxState, synapse: contract.Implementation, recording_sleep: RecordingSleep
) -> None:
    orchestrator = synapse.context_orchestrator(
        _ctx_llm(ctx_state), token_counter=ctx_state.counter, sleep=recording_sleep
    )
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    try:
        ctx_state.orch_result = run(orchestrator.offload_if_needed(ctx_state.messages, ctx_state.session_dir))
    except Exception as exc:
        pytest.fail(f"ContextOrchestrator.offloadIfNeeded raised {exc!r}")
    assert ctx_state.messages == ctx_state.snapshot, (
        "the orchestrator must not modify the history it is given"
    )


@when(
    parsers.parse(
        "用同一个真实组件创建的 `ContextOrchestrator` 先后为会话目录 `{first}` 与 `{second}` "
        "执行 `offloadIfNeeded(history, offloadDir)`"
    )
)
def ctx_when_real_orchestrator_two_dirs(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    first: str,
    second: str,
) -> None:
    orchestrator = synapse.context_orchestrator(
        _ctx_llm(ctx_state), token_counter=ctx_state.counter, sleep=recording_sleep
    )
    for name in (first, second):
        ctx_state.orch_results_by_dir[name] = run(
            orchestrator.offload_if_needed(ctx_state.messages, ctx_state.root / name)
        )


@then(parsers.parse("会话目录 `{first}` 与 `{second}` 的 offloaded 目录中应各只有该目录那次结果所引用的文件"))
def ctx_then_offloads_per_dir(ctx_state: CtxState, first: str, second: str) -> None:
    for name in (first, second):
        result = ctx_state.orch_results_by_dir[name]
        offload = result.offload_result
        assert offload is not None and offload.offloaded_count > 0, (
            f"setting up: the offload for {name} should have offloaded something, got {offload}"
        )
        referenced = sorted(
            _ctx_real(path)
            for m in offload.messages
            if m.get("role") == "tool"
            if (path := _ctx_reference_path(m)) is not None
        )
        files = [_ctx_real(f) for f in _ctx_files(ctx_state.root / name / "offloaded")]
        assert files == referenced, (
            f"the offloaded directory of {name} should hold exactly the files its own result references "
            f"({referenced}), holds {files}"
        )


def _ctx_offloaded_paths(state: CtxState) -> dict[int, str]:
    offload = _ctx_orch_result(state).offload_result
    assert offload is not None, "messages were offloaded, so offloadResult should be present"
    return {
        i: path
        for i, m in enumerate(offload.messages)
        if m.get("role") == "tool" and (path := _ctx_reference_path(m)) is not None
    }


@then(parsers.parse("前半区超过 `{min_chars:d}` 个字符的 tool 输出应被卸载"))
def ctx_then_real_offloaded(ctx_state: CtxState, min_chars: int) -> None:
    offload = _ctx_orch_result(ctx_state).offload_result
    assert offload is not None, "messages were offloaded, so offloadResult should be present"
    scan_end = math.floor(len(ctx_state.snapshot) * 0.5)
    expected = [i for i, m in enumerate(ctx_state.snapshot[:scan_end]) if _ctx_offloadable(m, min_chars)]
    assert sorted(_ctx_offloaded_paths(ctx_state)) == expected, (
        f"with SYNAPSE_OFFLOAD_MIN_CHARS={min_chars} exactly messages {expected} should become references"
    )
    assert offload.offloaded_count == len(expected), f"offloadedCount should be {len(expected)}"


@then(
    parsers.parse(
        "应以模型 `{model}` 生成总结，`maxTokens={max_tokens:d}`，共尝试 `{attempts:d}` 次，"
        "且总结看到的是恢复后的工具输出"
    )
)
def ctx_then_real_summary(
    ctx_state: CtxState, model: str, max_tokens: int, attempts: int, recording_sleep: RecordingSleep
) -> None:
    llm = _ctx_llm(ctx_state)
    assert [c.model for c in llm.calls] == [model] * attempts, (
        f"{attempts} summary attempts with model {model!r} expected, got {[c.model for c in llm.calls]}"
    )
    switched = set(llm.with_model_calls)
    assert switched == ({model} if model != llm.model_name else set()), (
        "withModel should be used only to switch to a different compaction model, "
        f"got {list(llm.with_model_calls)}"
    )
    assert [c.max_tokens for c in llm.calls] == [max_tokens] * attempts, (
        f"every summary call should allow maxTokens={max_tokens}, got {[c.max_tokens for c in llm.calls]}"
    )
    assert recording_sleep.delays == [pytest.approx(0.1 * a) for a in range(1, attempts)], (
        f"waits of 0.1 x attempt expected between attempts, got {recording_sleep.delays}"
    )
    sent = list(llm.calls[-1].messages)
    for index in _ctx_offloaded_paths(ctx_state):
        original = ctx_state.snapshot[index]
        match = [m for m in sent if m.get("toolCallId") == original["toolCallId"]]
        assert match and _ctx_text(match[0]) == _ctx_text(original), (
            f"the summary should see the restored output of tool message {index}"
        )


@then(parsers.parse("编排结果应为总结消息加最后 `{count:d}` 条原消息"))
def ctx_then_real_compacted(ctx_state: CtxState, count: int) -> None:
    result = _ctx_orch_result(ctx_state)
    assert ctx_state.summary is not None
    compact = result.compact_result
    assert compact is not None and compact.success, "the compaction should succeed and be reported"
    expected = [
        _ctx_text_message("user", COMPRESSED_PREFIX + ctx_state.summary),
        *ctx_state.snapshot[-count:],
    ]
    assert result.messages == expected, f"the history should be the summary plus the last {count} messages"
    assert compact.messages == expected, "compactResult.messages should be the new history"
    assert compact.preserved_count == count, (
        f"preservedCount should be {count}, got {compact.preserved_count}"
    )


@then("卸载的文件应在压缩后被删除并列入 `deletedFiles`")
def ctx_then_real_cleanup(ctx_state: CtxState) -> None:
    paths = sorted(_ctx_real(p) for p in _ctx_offloaded_paths(ctx_state).values())
    compact = _ctx_orch_result(ctx_state).compact_result
    assert compact is not None
    for path in paths:
        assert not Path(path).exists(), (
            f"{path} is referenced only by the summarised part and should be deleted"
        )
    assert sorted(_ctx_real(p) for p in compact.deleted_files) == paths, (
        f"deletedFiles should list {paths}, got {compact.deleted_files}"
    )


@then(parsers.parse("第 `{first:d}` 条消息应卸载为 `.json` 文件，第 `{second:d}` 条应卸载为 `.txt` 文件"))
def ctx_then_file_kinds(ctx_state: CtxState, first: int, second: int) -> None:
    result = _ctx_result(ctx_state)
    for number, suffix in ((first, ".json"), (second, ".txt")):
        _ctx_assert_offloaded(ctx_state, number - 1)
        path = _ctx_reference_path(result.messages[number - 1])
        assert path is not None and Path(path).suffix == suffix, (
            f"message {number} should go to a {suffix} file"
        )


@then(parsers.re(r"第 `(?P<number>\d+)` 条消息应卸载为 `(?P<suffix>\.json|\.txt)` 文件"))
def ctx_then_file_kind(ctx_state: CtxState, number: str, suffix: str) -> None:
    result = _ctx_result(ctx_state)
    index = int(number) - 1
    _ctx_assert_offloaded(ctx_state, index)
    path = _ctx_reference_path(result.messages[index])
    assert path is not None and Path(path).suffix == suffix, (
        f"message {number} should go to a {suffix} file (JSON.parse decides: the whole text, not a "
        f"prefix, must be JSON), got {path}"
    )


@then(parsers.parse("每个卸载文件都应命名为互不相同的随机 UUID（版本 4）加扩展名 `{suffix}`"))
def ctx_then_offload_names(ctx_state: CtxState, suffix: str) -> None:
    names = sorted(p.name for p in ctx_state.offloaded_dir.iterdir() if p.is_file())
    assert names, "scenario data: something should have been offloaded"
    wrong = [name for name in names if not probes.is_uuid4_file_name(name, suffix)]
    assert not wrong, (
        f"offload files are named <random UUID v4>{suffix} (8-4-4-4-12 lowercase hex digits, version 4, "
        f"variant 8/9/a/b), as the original's randomUUID() gives: {wrong}"
    )
    assert len({name.split(".")[0] for name in names}) == len(names), f"the UUIDs must differ: {names}"


@then("每个卸载文件都应只有所有者可读写（权限 `0600`）")
def ctx_then_offload_files_private(ctx_state: CtxState) -> None:
    files = sorted(p for p in ctx_state.offloaded_dir.iterdir() if p.is_file())
    assert files, "scenario data: something should have been offloaded"
    modes = {p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in files}
    assert set(modes.values()) == {"0o600"}, f"offload files hold tool output: mode 0600, got {modes}"


@then("没有消息被卸载时编排结果的 `offloadResult` 应为空")
def ctx_then_no_offload_result(ctx_state: CtxState) -> None:
    assert ctx_state.offload_double.report["offloadedCount"] == 0, "scenario data: nothing is offloaded"
    result = _ctx_orch_result(ctx_state)
    assert result.offload_result is None, (
        f"offloadResult should be None when nothing was offloaded, got {result.offload_result!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Feature: Context 压缩器默认参数、卸载环境变量与阈值边界
# --------------------------------------------------------------------------------------------------------


@given(
    parsers.parse(
        '一个会话 offload 目录与脚本化模型 "main-model"，其总结前 `{failures:d}` 次失败、之后回复 "{text}"'
    )
)
def ctx_given_failing_then_summary(
    ctx_state: CtxState, synapse: contract.Implementation, failures: int, text: str
) -> None:
    ctx_state.llm = synapse.scripted_llm("main-model")
    ctx_state.summary = text.replace("\\n", "\n")
    ctx_state.llm.fail(RuntimeError(SUMMARY_ERROR), times=failures).reply_text(ctx_state.summary)


@when("用不传 `preserveCount`、`targetTokens`、`retryCount` 的 ContextCompactor 压缩两次")
def ctx_when_default_compactor_twice(
    ctx_state: CtxState, synapse: contract.Implementation, recording_sleep: RecordingSleep
) -> None:
    compactor = synapse.context_compactor(
        _ctx_storage(ctx_state, synapse),
        _ctx_llm(ctx_state),
        token_counter=ctx_state.counter,
        sleep=recording_sleep,
    )
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    for attempt in range(2):
        try:
            ctx_state.compact_results.append(run(compactor.compact(copy.deepcopy(ctx_state.messages))))
        except Exception as exc:
            pytest.fail(
                f"compact #{attempt + 1} raised {exc!r}; a failed summary should be reported, not raised"
            )
        if attempt == 0:
            ctx_state.calls_after_first = len(_ctx_llm(ctx_state).calls)


@then(
    parsers.parse(
        "第一次压缩应在 `{attempts:d}` 次尝试后失败并保留原历史，每次请求的 `maxTokens` 为 `{max_tokens:d}`"
    )
)
def ctx_then_default_compactor_fails(ctx_state: CtxState, attempts: int, max_tokens: int) -> None:
    first = ctx_state.compact_results[0]
    assert ctx_state.calls_after_first == attempts, (
        f"the default retryCount should give {attempts} summary attempts in total, "
        f"got {ctx_state.calls_after_first}"
    )
    assert first.success is False, "the compaction should fail once every attempt failed"
    assert first.messages == ctx_state.snapshot, "a failed compaction should keep the original history"
    sent = [c.max_tokens for c in _ctx_llm(ctx_state).calls]
    assert sent and all(m == max_tokens for m in sent), (
        f"the default targetTokens should send maxTokens={max_tokens} (1.2 x target), got {sent}"
    )


@then(parsers.parse("第二次压缩应成功，结果为总结消息加最后 `{count:d}` 条原消息"))
def ctx_then_default_compactor_keeps(ctx_state: CtxState, count: int) -> None:
    assert len(ctx_state.compact_results) == 2, "compact should have run twice"
    second = ctx_state.compact_results[1]
    assert ctx_state.summary is not None
    assert second.success is True, "the second compaction should succeed with the scripted summary"
    expected = [
        _ctx_text_message("user", COMPRESSED_PREFIX + ctx_state.summary),
        *ctx_state.snapshot[-count:],
    ]
    assert second.messages == expected, (
        f"the default preserveCount should keep the last {count} messages after the summary"
    )
    assert second.preserved_count == count, f"preservedCount should be {count}, got {second.preserved_count}"


@given(parsers.parse('一个总结请求总是失败的脚本化模型 "{model}"'))
def ctx_given_always_failing(ctx_state: CtxState, synapse: contract.Implementation, model: str) -> None:
    ctx_state.llm = synapse.scripted_llm(model).fail(RuntimeError(SUMMARY_ERROR), times=10)


@given(parsers.parse("调整第 `{number:d}` 条消息的长度使历史恰好为 `{tokens:d}` tokens"))
def ctx_given_exact_tokens(ctx_state: CtxState, number: int, tokens: int) -> None:
    message = ctx_state.messages[number - 1]
    text = _ctx_text(message)
    missing = tokens - message_tokens(ctx_state.messages)
    assert len(text) + missing > 0, "scenario data: the message is too short to adjust"
    ctx_state.messages[number - 1] = {
        **message,
        "content": [{"type": "text", "text": text[0] * (len(text) + missing)}],
    }
    assert message_tokens(ctx_state.messages) == tokens, "scenario data: could not reach the token count"


@then(parsers.re(r"只有第 `(?P<numbers>[0-9,]+)` 条消息应被卸载|不应卸载任何消息"))
def ctx_then_offloaded_numbers(ctx_state: CtxState, numbers: str | None = None) -> None:
    result = _ctx_orch_result(ctx_state)
    if not numbers:
        assert result.offload_result is None, "nothing should be offloaded below the threshold"
        assert result.messages == ctx_state.snapshot, "the history should be returned unchanged"
        assert _ctx_files(ctx_state.offloaded_dir) == [], "no offload file should be written"
        return
    expected = [int(n) - 1 for n in numbers.split(",")]
    paths = _ctx_offloaded_paths(ctx_state)
    assert sorted(paths) == expected, (
        f"exactly messages {numbers} (1-based) should become references, got {[i + 1 for i in sorted(paths)]}"
    )
    for index, path in paths.items():
        assert Path(path).read_text(encoding="utf-8") == _ctx_text(ctx_state.snapshot[index]), (
            f"the file of message {index + 1} should hold its original text"
        )


@then(parsers.parse("总结应共尝试 `{attempts:d}` 次且压缩失败后保留卸载后的消息"))
def ctx_then_real_attempts(ctx_state: CtxState, attempts: int) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == attempts, (
        f"the compaction should try the summary {attempts} time(s), got {len(calls)}"
    )
    result = _ctx_orch_result(ctx_state)
    assert result.compact_result is None, "a failed compaction should not be reported as compactResult"
    offload = result.offload_result
    assert offload is not None, "messages were offloaded, so offloadResult should be present"
    assert result.messages == offload.messages, "after a failed compaction the offloaded history is kept"


@given(parsers.parse("ContextCompactor 的 `preserveCount={count:d}`"))
def ctx_given_preserve_count(ctx_state: CtxState, count: int) -> None:
    ctx_state.preserve_count = count


@given(parsers.parse("ContextCompactor 的 `targetTokens={count:d}`"))
def ctx_given_target_tokens(ctx_state: CtxState, count: int) -> None:
    ctx_state.target_tokens = count


@then(parsers.parse("总结请求的 `maxTokens` 应为 `{max_tokens:d}`，系统提示写明目标 `{target:d}`"))
def ctx_then_summary_max_tokens(ctx_state: CtxState, max_tokens: int, target: int) -> None:
    calls = list(_ctx_llm(ctx_state).calls)
    assert [c.max_tokens for c in calls] == [max_tokens], (
        f"one summary call allowing maxTokens={max_tokens}, got {[c.max_tokens for c in calls]}"
    )
    assert re.search(rf"(?<![\d-]){target}(?!\d)", calls[0].system_prompt), (
        f"the summary prompt should state the target {target}"
    )


@given("模型第一次的总结回复为空")
def ctx_given_empty_summary(ctx_state: CtxState) -> None:
    _ctx_llm(ctx_state).reply_text("")


@given("ContextCompactor 不传 token 计数器（使用实现的默认计数器）")
def ctx_given_default_counter(ctx_state: CtxState) -> None:
    ctx_state.counter = None


@given("ContextCompactor 使用每次计数都抛错的 token 计数器")
def ctx_given_failing_counter(ctx_state: CtxState) -> None:
    ctx_state.counter = FailingTokenCounter()


@then("实现应试过该计数器，并记下 token 计数失败的 warning")
def ctx_then_counter_failure_warning(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    counter = ctx_state.counter
    assert isinstance(counter, FailingTokenCounter) and counter.calls > 0, (
        "the implementation should have asked the injected counter before estimating"
    )
    warnings = [probes.logged_text(r) for r in _ctx_synapse_warnings(caplog, ctx_state.log_mark)]
    assert any("token" in text.lower() for text in warnings), (
        f"a warning saying that token counting failed should be logged, got {warnings!r}"
    )


@given("第 1 条消息的文本末尾多了一个孤立代理字元 U+D800")
def ctx_given_lone_surrogate(ctx_state: CtxState) -> None:
    part = ctx_state.messages[0]["content"][0]
    part["text"] += "\ud800"


@given(parsers.parse('第 1 条消息多了一个字段 "{field}"，值为整数 {value:d}'))
def ctx_given_extra_integer_field(ctx_state: CtxState, field: str, value: int) -> None:
    ctx_state.messages[0][field] = value


@then(parsers.parse("`previousTokens` 与 `currentTokens` 都应为 `{tokens:d}`"))
def ctx_then_compact_token_figures(ctx_state: CtxState, tokens: int) -> None:
    result = _ctx_compacted(ctx_state)
    found = (result.previous_tokens, result.current_tokens)
    assert found == (tokens, tokens), (
        f"(previousTokens, currentTokens) should be ({tokens}, {tokens}), got {found}"
    )


@then("压缩应被跳过：历史原样返回、`success=true` 且未调用总结模型")
def ctx_then_compact_skipped(ctx_state: CtxState) -> None:
    result = _ctx_compacted(ctx_state)
    assert result.success is True, "a compaction with nothing to summarise should report success=true"
    assert result.messages == ctx_state.snapshot, (
        "the split point moves back to message 0 (the whole tool round is kept), so the history is unchanged"
    )
    assert result.preserved_count == len(ctx_state.snapshot), (
        f"every message is preserved, preservedCount should be {len(ctx_state.snapshot)}, "
        f"got {result.preserved_count}"
    )
    assert result.freed_tokens == 0, f"nothing is freed, got freedTokens={result.freed_tokens}"
    calls = _ctx_llm(ctx_state).calls
    assert calls == [], f"the summary model must not be called, got {len(calls)} call(s)"


@then(parsers.parse("模型应被调用 `{count:d}` 次，两次之间等待 `{delay:g}` 秒"))
def ctx_then_called_with_wait(
    ctx_state: CtxState, count: int, delay: float, recording_sleep: RecordingSleep
) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == count, (
        f"an empty summary counts as a failed attempt, so the model should be called {count} times, "
        f"got {len(calls)}"
    )
    assert recording_sleep.delays == [pytest.approx(delay)], (
        f"one wait of {delay}s after the empty reply expected, got {recording_sleep.delays}"
    )


_CTX_IMAGE_PART: dict[str, Any] = {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}


@given(
    parsers.parse(
        '第 `{number:d}` 条消息的内容改为文本片段 "{first}"、一个图片片段与文本片段 "{second}"，'
        "各重复 `{repeat:d}` 次"
    )
)
def ctx_given_multipart(ctx_state: CtxState, number: int, first: str, second: str, repeat: int) -> None:
    message = ctx_state.messages[number - 1]
    ctx_state.messages[number - 1] = {
        **message,
        "content": [
            {"type": "text", "text": first * repeat},
            dict(_CTX_IMAGE_PART),
            {"type": "text", "text": second * repeat},
        ],
    }


@given(parsers.parse("第 `{number:d}` 条消息的内容前加入一个图片片段"))
def ctx_given_leading_image(ctx_state: CtxState, number: int) -> None:
    message = ctx_state.messages[number - 1]
    content = message.get("content")
    assert isinstance(content, list), "scenario data: the message should have a list of parts"
    ctx_state.messages[number - 1] = {**message, "content": [dict(_CTX_IMAGE_PART), *content]}


@given(parsers.parse("第 `{number:d}` 条消息的内容改为以下 JSON 片段"))
def ctx_given_json_parts(ctx_state: CtxState, number: int, docstring: str) -> None:
    """The message's content as the docstring's JSON array, parts of any shape (CTX-112)."""
    parts = json.loads(docstring)
    assert isinstance(parts, list), "scenario data: the content should be a JSON array of parts"
    message = ctx_state.messages[number - 1]
    ctx_state.messages[number - 1] = {**message, "content": parts}


@given(parsers.parse("第 `{number:d}` 条消息的 content 改为以下字符串"))
def ctx_given_string_content(ctx_state: CtxState, number: int, docstring: str) -> None:
    """A content that is a plain string, not a list of parts (CTX-120..122); directory placeholders
    expanded."""
    message = ctx_state.messages[number - 1]
    ctx_state.messages[number - 1] = {**message, "content": ctx_state.expand(docstring)}


@given(parsers.parse("第 `{number:d}` 条消息的 content 为 null"))
def ctx_given_null_content(ctx_state: CtxState, number: int) -> None:
    message = ctx_state.messages[number - 1]
    ctx_state.messages[number - 1] = {**message, "content": None}


@then(parsers.parse('第 `{number:d}` 条消息的卸载文件内容应为 "{text}"'))
def ctx_then_offload_file_text(ctx_state: CtxState, number: int, text: str) -> None:
    result = _ctx_result(ctx_state)
    path = _ctx_reference_path(result.messages[number - 1])
    assert path is not None, f"message {number} should become a `Tool result is at: <path>` reference"
    expected = text.replace("\\n", "\n")
    got = Path(path).read_text(encoding="utf-8")
    assert got == expected, (
        f"the offload file of message {number} should hold its text parts as Array.join joins them "
        f"(a missing or null text as nothing): expected {expected!r}, got {got!r}"
    )


@then(parsers.parse("第 `{number:d}` 条消息的卸载文件内容应为其文本片段以换行连接"))
def ctx_then_multipart_file(ctx_state: CtxState, number: int) -> None:
    result = _ctx_result(ctx_state)
    original = ctx_state.snapshot[number - 1]
    texts = [p["text"] for p in original["content"] if p.get("type") == "text"]
    path = _ctx_reference_path(result.messages[number - 1])
    assert path is not None, f"message {number} should become a `Tool result is at: <path>` reference"
    assert Path(path).read_text(encoding="utf-8") == "\n".join(texts), (
        f"the offload file of message {number} should hold its text parts joined with a newline "
        "(non-text parts left out)"
    )


@then(parsers.parse('总结模型看到的第 `{number:d}` 条消息应为 "{text}"'))
def ctx_then_summary_sees(ctx_state: CtxState, number: int, text: str) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == 1, f"one summary call expected, got {len(calls)}"
    sent = list(calls[0].messages)
    assert len(sent) >= number, f"the summary model should see at least {number} messages"
    assert _ctx_text(sent[number - 1]) == text, (
        f"message {number} is an offload reference, the summary should see the file content {text!r}, "
        f"got {_ctx_text(sent[number - 1])!r}"
    )


class CtxFailingSaveStorage:
    """Wraps the real storage; the ``fail_on``-th ``save`` raises instead of writing."""

    def __init__(self, inner: contract.OffloadStorage, fail_on: int) -> None:
        self.inner = inner
        self.fail_on = fail_on
        self.saves = 0

    @property
    def offloaded_dir(self) -> Path:
        return self.inner.offloaded_dir

    def save(self, content: str, ext: str | None = None) -> str:
        self.saves += 1
        if self.saves == self.fail_on:
            raise OSError("disk full")
        return self.inner.save(content, ext)

    def list_files(self) -> list[str]:
        return self.inner.list_files()

    def remove(self, path: str) -> None:
        self.inner.remove(path)


@given(parsers.parse("offload 存储写入第 `{number:d}` 个文件时失败"))
def ctx_given_failing_save(ctx_state: CtxState, synapse: contract.Implementation, number: int) -> None:
    ctx_state.storage = CtxFailingSaveStorage(_ctx_storage(ctx_state, synapse), number)


@then(parsers.parse("第 `{failed:d}` 条消息应保持原样并记录 warning，第 `{offloaded:d}` 条消息应被卸载"))
def ctx_then_failed_save_skipped(
    ctx_state: CtxState, caplog: pytest.LogCaptureFixture, failed: int, offloaded: int
) -> None:
    result = _ctx_result(ctx_state)
    assert result.messages[failed - 1] == ctx_state.snapshot[failed - 1], (
        f"message {failed} could not be saved, so it should stay inline unchanged"
    )
    _ctx_assert_offloaded(ctx_state, offloaded - 1)
    assert _ctx_synapse_warnings(caplog), "a failed offload write should be logged as a warning"


@given(parsers.parse('第 `{number:d}` 条消息的内容只有一个说明为 "{alt}" 的图片片段'))
def ctx_given_image_only(ctx_state: CtxState, number: int, alt: str) -> None:
    message = ctx_state.messages[number - 1]
    part = {**_CTX_IMAGE_PART, "alt": alt, "data": "aGVsbG8gd29ybGQ=" * 4}
    ctx_state.messages[number - 1] = {**message, "content": [part]}


@then(parsers.parse("第 `{number:d}` 条消息的卸载文件应为其内容的紧凑 JSON 且保留非 ASCII 字符"))
def ctx_then_json_file(ctx_state: CtxState, number: int) -> None:
    result = _ctx_result(ctx_state)
    original = ctx_state.snapshot[number - 1]
    path = _ctx_reference_path(result.messages[number - 1])
    assert path is not None, f"message {number} should become a `Tool result is at: <path>` reference"
    expected = json.dumps(original["content"], ensure_ascii=False, separators=(",", ":"))
    assert Path(path).read_text(encoding="utf-8") == expected, (
        f"a tool message without text parts should be offloaded as its content in compact JSON "
        f"(no spaces, non-ASCII kept), expected {expected!r}"
    )
    assert Path(path).suffix == ".json", f"the JSON content should go to a .json file, got {path}"


@then(parsers.parse('应记录一条以 "{prefix}" 开头并指明该引用路径的 warning'))
def ctx_then_out_of_scope_warning(ctx_state: CtxState, caplog: pytest.LogCaptureFixture, prefix: str) -> None:
    assert ctx_state.subject is not None
    reference = _ctx_reference_path(ctx_state.snapshot[ctx_state.subject])
    assert reference is not None
    warnings = [r.getMessage() for r in _ctx_synapse_warnings(caplog)]
    matching = [w for w in warnings if w.startswith(prefix) and reference in w]
    assert len(matching) == 1, (
        f"skipping the reference should log one warning starting with {prefix!r} and naming {reference}, "
        f"got {warnings!r}"
    )


@given("卸载目录内有一个含文件的子目录 `{offloaded}/nested`")
def ctx_given_nested_dir(ctx_state: CtxState) -> None:
    (ctx_state.offloaded_dir / "nested").mkdir(parents=True)
    (ctx_state.offloaded_dir / "nested" / "inner.txt").write_text("nested", encoding="utf-8")


@then("返回的 deleted 列表应恰好为 `{offloaded}/a.txt`")
def ctx_then_deleted_only_plain(ctx_state: CtxState) -> None:
    assert ctx_state.error is None, f"cleanupOffloadedFiles raised {ctx_state.error!r}"
    expected = [str(ctx_state.offloaded_dir / "a.txt")]
    assert list(ctx_state.deleted or []) == expected, (
        f"only the plain file should be deleted: expected {expected}, got {ctx_state.deleted!r}"
    )
    assert not (ctx_state.offloaded_dir / "a.txt").exists(), "a.txt should be deleted"


@then("符号链接 `{offloaded}/link.txt`、子目录 `{offloaded}/nested` 与 `{outside}/secret.txt` 都应还在")
def ctx_then_others_kept(ctx_state: CtxState) -> None:
    link = ctx_state.offloaded_dir / "link.txt"
    assert link.is_symlink(), "the symbolic link in the offload directory must not be removed"
    assert (ctx_state.offloaded_dir / "nested" / "inner.txt").is_file(), "the subdirectory must be kept"
    assert (ctx_state.outside_dir / "secret.txt").is_file(), "the link's target must be kept"


@then(parsers.parse('应记录一条以 "{prefix}" 开头的 error'))
def ctx_then_error_logged(caplog: pytest.LogCaptureFixture, prefix: str) -> None:
    errors = [
        r.getMessage()
        for r in probes.implementation_records(caplog.records, logging.ERROR)
        if r.getMessage().startswith(prefix)
    ]
    assert len(errors) == 1, f"one synapse.* error starting with {prefix!r} should be logged, got {errors!r}"


@given("总结模型的回复依次由以下片段组成")
def ctx_given_parts_model(ctx_state: CtxState, datatable: list[list[str]]) -> None:
    parts = reply_parts_of(datatable)
    ctx_state.llm = cast(contract.ScriptedLLM, PartsModel("main-model", parts))


@then(parsers.parse('压缩结果应为 `success=true`，第一条消息的文本为 "{text}"'))
def ctx_then_summary_text(ctx_state: CtxState, text: str) -> None:
    result = ctx_state.compact_result
    assert result is not None and result.success, f"the compaction should succeed, got {result!r}"
    expected = cells.expand(text.replace("\\n", "\n"))
    first = result.messages[0]
    assert first == {"role": "user", "content": [{"type": "text", "text": expected}]}, (
        f"the compacted history should start with the user message {expected!r}, got {first!r}"
    )


@then(parsers.parse('应只记录一条 warning，以 "{prefix}" 开头并包含 "{detail}"'))
def ctx_then_one_attempt_warning(
    ctx_state: CtxState, caplog: pytest.LogCaptureFixture, prefix: str, detail: str
) -> None:
    warnings = [probes.logged_text(r) for r in _ctx_synapse_warnings(caplog, ctx_state.log_mark)]
    assert len(warnings) == 1 and warnings[0].startswith(prefix) and _ctx_names_phrase(warnings[0], detail), (
        f"one warning starting with {prefix!r} and naming {detail!r} as a whole (the error's own text, "
        f"with nothing glued to it) should be logged, got {warnings!r}"
    )


def _ctx_names_phrase(text: str, phrase: str) -> bool:
    """Whether ``text`` holds ``phrase`` with no letter or digit glued to either end: the message of an
    error logged beside (or inside) a warning, as the original words it, not a longer word holding it."""
    return re.search(rf"(?<![^\W_]){re.escape(phrase)}(?![^\W_])", text) is not None


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: restore reads only small regular files of the offload directory
# --------------------------------------------------------------------------------------------------------

CTX_RESTORE_LIMIT_ENV = "SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES"
CTX_COMPACT_TIMEOUT = 10.0
CTX_SECRET = "目录外的机密内容"


def _ctx_expand_nul(state: CtxState, text: str) -> str:
    """``{offloaded}``/``{outside}`` as usual, ``\\0`` for a NUL character and ``\\ud800`` for a lone
    surrogate (a name no file system encoding can take)."""
    return state.expand(text).replace("\\0", "\0").replace("\\ud800", "\ud800")


@given(parsers.re(r"^一段 10 条消息的历史，第 `(?P<number>3|8)` 条 tool 消息引用 `(?P<path>[^`]+)`$"))
def ctx_given_ten_messages(ctx_state: CtxState, number: str, path: str) -> None:
    """Two read rounds (messages 2-3 and 7-8); message ``number`` is the reference, the other tool
    result is plain text.  With ``preserveCount=5`` message 3 is summarised and message 8 is kept."""
    reference = f"{REFERENCE_PREFIX} {_ctx_expand_nul(ctx_state, path)}"
    rows = [
        ("user", "读取输出", ""),
        ("assistant", "调用 read", "c1"),
        ("tool", "普通的工具输出", "c1"),
        ("assistant", "读完了", ""),
        ("user", "继续", ""),
        ("user", "再读一次", ""),
        ("assistant", "调用 read", "c2"),
        ("tool", "普通的工具输出", "c2"),
        ("assistant", "读完了", ""),
        ("user", "谢谢", ""),
    ]
    messages = []
    for index, (role, text, call) in enumerate(rows, start=1):
        message = _ctx_text_message(role, reference if index == int(number) else text)
        if role == "assistant" and call:
            message["toolCalls"] = [{"id": call, "name": "read", "arguments": "{}"}]
        if role == "tool":
            message["toolCallId"] = call
        messages.append(message)
    ctx_state.messages = messages
    ctx_state.subject = int(number) - 1


def _ctx_subject_reference(state: CtxState) -> str:
    assert state.subject is not None, "the scenario has no referencing tool message"
    path = _ctx_reference_path(state.messages[state.subject])
    assert path is not None, "scenario data: the subject should be an offload reference"
    return path


@given(parsers.re(r"^被引用的卸载文件是(?P<kind>.+)$"))
def ctx_given_referenced_file(ctx_state: CtxState, kind: str) -> None:
    path = _ctx_subject_reference(ctx_state)
    sized = re.fullmatch(r"一个 (\d+) 字节的 ASCII 文本文件", kind)
    cjk = re.fullmatch(r"一个由 (\d+) 个中文字符组成、共 (\d+) 字节的 UTF-8 文本文件", kind)
    if kind == "一个命名管道（FIFO）":
        os.mkfifo(path)
    elif kind == "一个命名管道（FIFO）下的路径":
        os.mkfifo(Path(path).parent)
    elif kind == "卸载目录本身为命名管道（FIFO）时其中的名字":
        shutil.rmtree(ctx_state.offloaded_dir, ignore_errors=True)
        os.mkfifo(ctx_state.offloaded_dir)
    elif kind == "一个 Unix 域套接字，打开时无此设备":
        os.mknod(path, 0o600 | stat.S_IFSOCK)  # open() of a socket fails with ENXIO
    elif kind == "指向 `{outside}/secret.txt` 的硬链接":
        os.link(ctx_state.outside_dir / "secret.txt", path)
    elif kind == "路径中含 NUL 字符、无法打开的名字":
        assert "\0" in path, "scenario data: the reference should hold a NUL character"
    elif kind == "路径中含孤立代理字元、无法编码的名字":
        assert "\ud800" in path, "scenario data: the reference should hold a lone surrogate"
    elif kind == "一个以 CRLF 与单独的 CR 断行的文本文件（HTTP 响应头与进度条）":
        content = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nget 50%\rget 100%\r\n"
        Path(path).write_bytes(content.encode("ascii"))
        ctx_state.files[path] = content  # readFileSync(utf-8) keeps every \r
    elif kind == "一个以字节序标记开头的 UTF-8 文本文件（PowerShell 写出的表格）":
        content = "\ufeffName    Value\n----    -----\nPath    C:\\work\n"
        Path(path).write_bytes(content.encode("utf-8"))  # U+FEFF is the three bytes EF BB BF
        ctx_state.files[path] = content  # readFileSync(utf-8) keeps it as U+FEFF
    elif kind == "一个含无效 UTF-8 字节的文本文件":
        Path(path).write_bytes("日志 ok ".encode() + b"\xff\xfe" + " 结束".encode())
        ctx_state.files[path] = "日志 ok \ufffd\ufffd 结束"  # what the original's readFileSync(utf-8) gives
    elif cjk:
        content = "汉" * int(cjk[1])
        assert len(content.encode("utf-8")) == int(cjk[2]), "scenario data: a CJK character is 3 bytes"
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(content, encoding="utf-8")
        ctx_state.files[path] = content
    elif sized:
        content = "a" * int(sized[1])
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(content, encoding="ascii")
        ctx_state.files[path] = content
    else:
        raise AssertionError(f"the step does not know how to make {kind!r}")


@given(parsers.re(rf'^环境变量 `{CTX_RESTORE_LIMIT_ENV}` 为 "(?P<value>[^"]*)"$'))
def ctx_given_restore_limit(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """An empty value means the variable is not set."""
    if value:
        monkeypatch.setenv(CTX_RESTORE_LIMIT_ENV, value)
    else:
        monkeypatch.delenv(CTX_RESTORE_LIMIT_ENV, raising=False)


def _ctx_unblock_fifos(directory: Path) -> None:
    """Open the write end of every FIFO below ``directory``, so a reader blocked in open() returns."""
    for path in [directory, *(directory.rglob("*") if directory.is_dir() else [])]:
        if path.is_fifo():
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                continue


@when("执行 compact，最多等待 10 秒")
def ctx_when_compact_bounded(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    caplog: pytest.LogCaptureFixture,
) -> None:
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    ctx_state.log_mark = len(caplog.records)
    outcome: dict[str, Any] = {}

    def compact() -> None:
        try:
            outcome["result"] = run(compactor.compact(ctx_state.messages))
        except BaseException as exc:
            outcome["error"] = exc

    worker = threading.Thread(target=compact, name="compact-under-timeout", daemon=True)
    worker.start()
    worker.join(CTX_COMPACT_TIMEOUT)
    if worker.is_alive():
        _ctx_unblock_fifos(ctx_state.offloaded_dir)
        worker.join(CTX_COMPACT_TIMEOUT)
        pytest.fail(
            f"compact did not finish within {CTX_COMPACT_TIMEOUT:.0f} s: restoring must never block "
            "(a FIFO in the offload directory blocks open() unless it is opened non-blocking)"
        )
    if "error" in outcome:
        pytest.fail(
            f"compact must not raise (failures are reported with success=false): {outcome['error']!r}"
        )
    ctx_state.compact_result = outcome["result"]


@then("压缩应在时限内成功完成")
def ctx_then_compacted_in_time(ctx_state: CtxState) -> None:
    result = _ctx_compacted(ctx_state)
    assert result.success is True, "compaction should succeed: a bad offload reference must not fail it"
    assert ctx_state.summary is not None
    assert _ctx_text(result.messages[0]) == COMPRESSED_PREFIX + ctx_state.summary, (
        f"the history should start with the summary, got {result.messages[0]!r}"
    )
    assert result.messages[1:] == ctx_state.snapshot[-5:], "the last 5 messages should be kept unchanged"


def _ctx_summary_sees(state: CtxState, number: int) -> Message:
    calls = _ctx_llm(state).calls
    assert len(calls) == 1, f"one summary call expected, got {len(calls)}"
    sent = list(calls[0].messages)
    assert len(sent) >= number, f"the summary model should see at least {number} messages, got {len(sent)}"
    return sent[number - 1]


def _ctx_assert_reference_kept(state: CtxState, number: int) -> None:
    seen = _ctx_summary_sees(state, number)
    original = state.snapshot[number - 1]
    assert seen == original, (
        f"a file restoring may not read should keep its reference text, the summary saw {seen!r}"
    )


def _ctx_assert_warning_names(state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    path = _ctx_subject_reference(state)
    names = (path, repr(path)[1:-1], path.replace("\0", "\\0"))
    warnings = [r.getMessage() for r in _ctx_synapse_warnings(caplog, state.log_mark)]
    assert any(any(name in text for name in names) for text in warnings), (
        f"a warning should name the reference {path!r}; warnings were {warnings}"
    )


@then(parsers.re(r"^总结模型看到的第 `(?P<number>\d+)` 条消息应保持引用原文$"))
def ctx_then_summary_sees_reference(ctx_state: CtxState, number: str) -> None:
    _ctx_assert_reference_kept(ctx_state, int(number))


@then(parsers.re(r"^总结模型应看到待总结的全部 `(?P<count>\d+)` 条消息，其余各条与历史相同$"))
def ctx_then_summary_sees_all(ctx_state: CtxState, count: str) -> None:
    calls = _ctx_llm(ctx_state).calls
    assert len(calls) == 1, f"one summary call expected, got {len(calls)}"
    sent = list(calls[0].messages)
    assert len(sent) == int(count), (
        f"the summary model should see all {count} summarised messages, got {len(sent)}: a reference "
        "restoring skips must not stop the restore of the messages after it"
    )
    for index, (seen, original) in enumerate(zip(sent, ctx_state.snapshot, strict=False)):
        if index != ctx_state.subject:
            assert seen == original, f"message {index + 1} should reach the summary unchanged, got {seen!r}"


@then("应记录一条指明该引用路径的 warning")
def ctx_then_warning_names_reference(ctx_state: CtxState, caplog: pytest.LogCaptureFixture) -> None:
    _ctx_assert_warning_names(ctx_state, caplog)


@then(
    parsers.re(
        r"^总结模型看到的第 `(?P<number>\d+)` 条消息应"
        r"(?P<what>为该文件的内容|保持引用原文，并有指明该引用路径的 warning)$"
    )
)
def ctx_then_summary_sees_by_size(
    ctx_state: CtxState, caplog: pytest.LogCaptureFixture, number: str, what: str
) -> None:
    if what == "为该文件的内容":
        content = ctx_state.files[_ctx_subject_reference(ctx_state)]
        seen = _ctx_text(_ctx_summary_sees(ctx_state, int(number)))
        assert seen == content, (
            f"a file within the restore limit should be restored ({len(content)} characters), "
            f"the summary saw {len(seen)} characters: {seen[:80]!r}"
        )
    else:
        _ctx_assert_reference_kept(ctx_state, int(number))
        _ctx_assert_warning_names(ctx_state, caplog)


@then("发给模型的请求中不应出现目录外的内容")
def ctx_then_no_outside_content(ctx_state: CtxState) -> None:
    for number, call in enumerate(_ctx_llm(ctx_state).calls, start=1):
        sent = json.dumps(list(call.messages), ensure_ascii=False)
        assert CTX_SECRET not in sent, f"model call {number} carries the content of a file outside"


@then(parsers.re(r"^保留区的第 `(?P<number>\d+)` 条消息应保持引用原文$"))
def ctx_then_tail_reference_kept(ctx_state: CtxState, number: str) -> None:
    original = ctx_state.snapshot[int(number) - 1]
    kept = _ctx_compacted(ctx_state).messages
    assert original in kept, f"the kept tail should hold message {number} unchanged: {kept}"


@then(parsers.re(r"^卸载文件 `(?P<path>[^`]+)` 应被删除并列入 `deletedFiles`$"))
def ctx_then_file_deleted(ctx_state: CtxState, path: str) -> None:
    target = ctx_state.expand(path)
    assert not os.path.lexists(target), f"{target} is referenced by nothing kept and should be deleted"
    deleted = [_ctx_real(p) for p in _ctx_compacted(ctx_state).deleted_files]
    assert _ctx_real(target) in deleted, f"deletedFiles should list {target}, got {deleted}"


# The swapper stops by itself when the test process is gone (killed before its finalizer ran) or after
# two minutes, so an interrupted run never leaves it behind.
CTX_SWAPPER = """
import os, sys, time
target, outside, content, parent = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
directory = os.path.dirname(target)
regular, link = os.path.join(directory, ".swap-regular"), os.path.join(directory, ".swap-link")
deadline = time.monotonic() + 120
while os.getppid() == parent and time.monotonic() < deadline and os.path.isdir(directory):
    with open(regular, "w", encoding="utf-8") as handle:
        handle.write(content)
    os.replace(regular, target)
    try:
        os.symlink(outside, link)
    except FileExistsError:
        pass
    os.replace(link, target)
"""


@given(
    parsers.re(
        r'^另一个进程不停地把 `(?P<target>[^`]+)` 换成内容为 "(?P<content>[^"]+)" 的普通文件'
        r"或指向 `(?P<outside>[^`]+)` 的符号链接$"
    )
)
def ctx_given_swapping_process(
    ctx_state: CtxState, request: pytest.FixtureRequest, target: str, content: str, outside: str
) -> None:
    path, secret = ctx_state.expand(target), ctx_state.expand(outside)
    assert path == _ctx_subject_reference(ctx_state), "scenario data: the swapped file is the one referenced"
    Path(path).write_text(content, encoding="utf-8")
    _ctx_start_changer(request, CTX_SWAPPER, path, secret, content)
    ctx_state.changing = lambda: os.path.islink(path)
    ctx_state.files[path] = content


def _ctx_start_changer(request: pytest.FixtureRequest, script: str, *args: str) -> None:
    """Run one of the scripts above in a process of its own (it gets this process's id last, to stop when
    it is gone) and kill it when the scenario ends."""
    changer = subprocess.Popen(
        [sys.executable, "-c", script, *args, str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )

    def stop() -> None:
        changer.kill()
        changer.wait(timeout=30)
        if changer.stderr is not None:
            changer.stderr.close()

    request.addfinalizer(stop)


# Keeps the file `short` bytes long, then `long` bytes long, over and over (truncate, then write the rest
# in one call), and stops like the swapper above.
CTX_GROWER = """
import os, sys, time
target, short, long, parent = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
tail = b"b" * (long - short)
fd = os.open(target, os.O_WRONLY)
deadline = time.monotonic() + 120
while os.getppid() == parent and time.monotonic() < deadline:
    os.ftruncate(fd, short)
    os.pwrite(fd, tail, short)
"""


@given(
    parsers.re(
        r"^另一个进程不停地把 `(?P<target>[^`]+)` 截短为 (?P<short>\d+) 字节、再写长到 (?P<long>\d+) 字节$"
    )
)
def ctx_given_growing_process(
    ctx_state: CtxState, request: pytest.FixtureRequest, target: str, short: str, long: str
) -> None:
    """The file is ``short`` bytes of ``a`` most of the time it is checked, and ``long`` bytes soon after:
    a restore that trusts the size it saw before reading may read more than the limit allows."""
    path = ctx_state.expand(target)
    assert path == _ctx_subject_reference(ctx_state), "scenario data: the changing file is the one referenced"
    Path(path).write_bytes(b"a" * int(short))
    _ctx_start_changer(request, CTX_GROWER, path, short, long)
    ctx_state.changing = lambda: os.path.getsize(path) == int(long)
    ctx_state.files[path] = "a" * int(short)


@then(
    parsers.re(
        r"^任何一次恢复的第 `(?P<number>\d+)` 条消息都应为不超过 (?P<limit>\d+) 字节的文件内容或保持引用原文$"
    )
)
def ctx_then_never_over_limit(
    ctx_state: CtxState, ctx_restored_texts: list[str], number: str, limit: str
) -> None:
    reference = _ctx_text(ctx_state.snapshot[int(number) - 1])
    assert ctx_restored_texts, "the restore should have run"
    over = [
        text for text in ctx_restored_texts if text != reference and len(text.encode("utf-8")) > int(limit)
    ]
    assert not over, (
        f"{len(over)} of {len(ctx_restored_texts)} restores read more than the {limit}-byte limit from a "
        f"file that grew after its size was checked (e.g. {len(over[0].encode('utf-8'))} bytes)"
    )


# Moves the directory aside and a symbolic link to the outside directory in its place, then back, over and
# over, and stops like the swapper above.
CTX_DIR_SWAPPER = """
import os, sys, time
target, outside, parent = sys.argv[1], sys.argv[2], int(sys.argv[3])
directory = os.path.dirname(target)
aside, link = os.path.join(directory, ".swap-aside"), os.path.join(directory, ".swap-dir-link")
os.symlink(outside, link)
deadline = time.monotonic() + 120
while os.getppid() == parent and time.monotonic() < deadline:
    os.rename(target, aside)
    os.rename(link, target)
    os.rename(target, link)
    os.rename(aside, target)
"""


@given(
    parsers.re(
        r"^另一个进程不停地把含该文件的目录 `(?P<target>[^`]+)` 换成指向 `(?P<outside>[^`]+)` 的符号链接，"
        r"后者中同一相对路径上有内容为目录外机密的文件$"
    )
)
def ctx_given_dir_swapping_process(
    ctx_state: CtxState, request: pytest.FixtureRequest, target: str, outside: str
) -> None:
    """The file outside lies at the same path below ``outside`` as the referenced one below the swapped
    directory, so a restore that opens the file through the link swapped in reads the secret."""
    directory, elsewhere = Path(ctx_state.expand(target)), Path(ctx_state.expand(outside))
    subject = Path(_ctx_subject_reference(ctx_state))
    assert directory in subject.parents, "scenario data: the swapped directory holds the referenced file"
    twin = elsewhere / subject.relative_to(directory)
    for path, text in ((subject, "目录内的工具输出"), (twin, CTX_SECRET)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _ctx_start_changer(request, CTX_DIR_SWAPPER, str(directory), str(elsewhere))
    ctx_state.changing = lambda: directory.is_symlink()
    ctx_state.files[str(subject)] = "目录内的工具输出"


@pytest.fixture
def ctx_restored_texts() -> list[str]:
    """The subject message's text after each of a scenario's repeated restores."""
    return []


@when(parsers.re(r"^执行压缩前的引用恢复 (?P<times>\d+) 次$"))
def ctx_when_restore_repeatedly(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    ctx_restored_texts: list[str],
    times: str,
) -> None:
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    deadline = time.monotonic() + CTX_COMPACT_TIMEOUT
    changing = ctx_state.changing
    assert changing is not None, "scenario data: another process changes the referenced file"
    while not changing():  # wait until the other process is changing the file
        assert time.monotonic() < deadline, "setting up: the process changing the file did not start"
        time.sleep(0.001)
    assert ctx_state.subject is not None
    for attempt in range(1, int(times) + 1):
        try:
            restored = compactor.restore_offloaded_content(copy.deepcopy(ctx_state.messages))
        except Exception as exc:
            pytest.fail(f"restore {attempt} raised {exc!r} while the file was being swapped")
        ctx_restored_texts.append(_ctx_text(restored[ctx_state.subject]))


@when(
    parsers.re(r"^在实现进程只能再打开 `(?P<headroom>\d+)` 个文件时执行压缩前的引用恢复 `(?P<times>\d+)` 次$")
)
def ctx_when_restore_with_few_descriptors(
    ctx_state: CtxState,
    synapse: contract.Implementation,
    recording_sleep: RecordingSleep,
    ctx_restored_texts: list[str],
    headroom: str,
    times: str,
) -> None:
    """A descriptor a restore leaves open is one fewer for every later one: under a ``RLIMIT_NOFILE``
    a few above what the process holds, a leak of one per restore fails the restores after it."""
    compactor = _ctx_compactor(ctx_state, synapse, recording_sleep)
    ctx_state.snapshot = copy.deepcopy(ctx_state.messages)
    assert ctx_state.subject is not None
    limit = probes.lowest_free_descriptor(synapse) + int(headroom)
    with probes.resource_limit(synapse, probes.RLIMIT_NOFILE, limit):
        for attempt in range(1, int(times) + 1):
            try:
                restored = compactor.restore_offloaded_content(copy.deepcopy(ctx_state.messages))
            except Exception as exc:
                pytest.fail(f"restore {attempt} raised {exc!r}")
            ctx_restored_texts.append(_ctx_text(restored[ctx_state.subject]))


@then(parsers.re(r"^每一次第 `(?P<number>\d+)` 条消息都应为该文件的内容$"))
def ctx_then_every_restore_read(ctx_state: CtxState, ctx_restored_texts: list[str], number: str) -> None:
    assert ctx_state.subject == int(number) - 1, "scenario data: message number is the reference"
    content = ctx_state.files[_ctx_subject_reference(ctx_state)]
    failed = [n for n, text in enumerate(ctx_restored_texts, start=1) if text != content]
    assert ctx_restored_texts and not failed, (
        f"every restore should read the file; restores {failed[:5]}... of {len(ctx_restored_texts)} did "
        "not (a descriptor left open by each restore runs the process out of them)"
    )


@then("任何一次恢复的结果中都不应出现目录外的内容")
def ctx_then_never_outside(ctx_restored_texts: list[str]) -> None:
    seen = ctx_restored_texts
    assert seen, "the restore should have run"
    leaked = sum(1 for text in seen if CTX_SECRET in text)
    assert leaked == 0, (
        f"{leaked} of {len(seen)} restores read the file outside through a link swapped in after the check"
    )


@then(parsers.re(r'^每一次第 `(?P<number>\d+)` 条消息都应为 "(?P<content>[^"]+)" 或保持引用原文$'))
def ctx_then_inside_or_reference(
    ctx_state: CtxState, ctx_restored_texts: list[str], number: str, content: str
) -> None:
    reference = _ctx_text(ctx_state.snapshot[int(number) - 1])
    assert ctx_restored_texts, "the restore should have run"
    unexpected = {text for text in ctx_restored_texts if text not in (content, reference)}
    assert not unexpected, (
        f"each restore should give the file's own content or keep the reference: {unexpected}"
    )


@given(
    parsers.parse(
        '第 `{number:d}` 条 tool 消息的内容改为文本片段 "{text}" 加上引用 `{file}` 的第二个文本片段'
    )
)
def ctx_given_reference_in_second_part(ctx_state: CtxState, number: int, text: str, file: str) -> None:
    _ctx_reference_in_second_part(ctx_state, number, text, "text", file)


@given(
    parsers.parse(
        '第 `{number:d}` 条 tool 消息的内容改为文本片段 "{text}" 加上 type 为 "{kind}"、'
        "text 为引用 `{file}` 的片段"
    )
)
def ctx_given_reference_in_other_part(
    ctx_state: CtxState, number: int, text: str, kind: str, file: str
) -> None:
    _ctx_reference_in_second_part(ctx_state, number, text, kind, file)


def _ctx_reference_in_second_part(ctx_state: CtxState, number: int, text: str, kind: str, file: str) -> None:
    message = ctx_state.messages[number - 1]
    assert message["role"] == "tool", f"scenario data: message {number} should be a tool message"
    path = ctx_state.expand(file)
    assert path in ctx_state.files, f"scenario data: {path} should be one of the offload files"
    ctx_state.messages[number - 1] = {
        **message,
        "content": [
            {"type": "text", "text": text},
            {"type": kind, "text": f"{REFERENCE_PREFIX} {path}"},
        ],
    }


@then(parsers.parse("`{file}` 应保留且内容不变，其余卸载文件都应被删除并恰好列入 `deletedFiles`"))
def ctx_then_only_file_kept(ctx_state: CtxState, file: str) -> None:
    kept = ctx_state.expand(file)
    assert Path(kept).is_file() and Path(kept).read_text(encoding="utf-8") == ctx_state.files[kept], (
        f"{kept} is referenced by the kept tail and must stay as it was"
    )
    _ctx_assert_cleanup(ctx_state, kept)


@then("所有卸载文件都应被删除并恰好列入 `deletedFiles`")
def ctx_then_all_files_deleted(ctx_state: CtxState) -> None:
    _ctx_assert_cleanup(ctx_state, None)


def _ctx_assert_cleanup(ctx_state: CtxState, kept: str | None) -> None:
    result = _ctx_assert_compacted(ctx_state, ctx_state.preserve_count)
    others = {_ctx_real(p) for p in ctx_state.files if p != kept}
    for path in others:
        assert not Path(path).exists(), f"{path} is not referenced by the kept tail and should be deleted"
    deleted = [_ctx_real(p) for p in result.deleted_files]
    assert sorted(deleted) == sorted(others), (
        f"deletedFiles should list exactly {sorted(others)}, got {deleted}"
    )
