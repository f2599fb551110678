"""Steps of the session layer (persistence, index, usage and cost) and of the stop-hook executor."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from steps.support import run
from synapse_spec import cells, probes
from synapse_spec.contract import Implementation

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
INDEX_FIXTURES = FIXTURES / "sessions_index"
PRICING_FIXTURES = FIXTURES / "pricing"

SONNET = "claude-sonnet-4-20250514"
SONNET_PRICING = {
    SONNET: {
        "inputPerMillion": 3.0,
        "outputPerMillion": 15.0,
        "cacheReadPerMillion": 0.3,
        "cacheWritePerMillion": 3.75,
    }
}
ROUND_KEYS = ("inputOther", "output", "inputCacheRead", "inputCacheCreation")
TOTAL_KEYS = ("totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation")
STOP_HOOK_MARKER = "[StopHook]"


# --------------------------------------------------------------------------------------------------------
# Scenario state
# --------------------------------------------------------------------------------------------------------


@dataclass
class SesWorld:
    """What one session scenario built and observed."""

    root: Path
    sessions_dir: Path
    session: Any = None
    usage: dict[str, Any] | None = None
    model: str = SONNET
    pricing: dict[str, dict[str, float]] | None = None
    planned_rounds: int = 0
    round_template: dict[str, int] = field(default_factory=dict)
    output: str | None = None
    result: Any = None
    error: BaseException | None = None
    action: Callable[[], Any] | None = None
    snapshot: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def ses_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SesWorld:
    # Nothing in a scenario may read the real home directory (pricing.json lives under SYNAPSE_HOME).
    home = tmp_path / "synapse-home"
    home.mkdir()
    monkeypatch.setenv("SYNAPSE_HOME", str(home))
    monkeypatch.delenv("SYNAPSE_SESSIONS_DIR", raising=False)
    monkeypatch.delenv("SYNAPSE_MAX_ROUNDS_KEPT", raising=False)
    monkeypatch.delenv("SYNAPSE_MAX_SESSIONS", raising=False)
    sessions_dir = tmp_path / "sessions"
    sessions_dir.mkdir()
    return SesWorld(root=tmp_path, sessions_dir=sessions_dir)


def _synapse_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return probes.implementation_records(caplog.records, logging.WARNING)


def _table(datatable: list[list[str]]) -> list[dict[str, str]]:
    header, *rows = datatable
    return [dict(zip(header, row, strict=True)) for row in rows]


def _text_message(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": text}]}


def _round(row: dict[str, str]) -> dict[str, int]:
    return {key: int(row[key]) for key in ROUND_KEYS}


def _read_index(sessions_dir: Path) -> dict[str, Any]:
    path = sessions_dir / "sessions.json"
    assert path.is_file(), f"expected the sessions index at {path}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise AssertionError(f"sessions.json is not valid JSON: {exc}") from exc
    assert isinstance(data, dict) and isinstance(data.get("sessions"), list), (
        f"sessions.json should be {{'version', 'sessions': [...], 'updatedAt'}}, got {data!r}"
    )
    return data


def _index_entry(sessions_dir: Path, session_id: str) -> dict[str, Any]:
    entries = [e for e in _read_index(sessions_dir)["sessions"] if e.get("id") == session_id]
    assert len(entries) == 1, f"sessions.json should hold exactly one entry for {session_id}, got {entries!r}"
    return dict(entries[0])


def _empty_usage(model: str) -> dict[str, Any]:
    return {**dict.fromkeys(TOTAL_KEYS, 0), "model": model, "rounds": [], "totalCost": None}


def _place_index(world: SesWorld, name: str) -> None:
    target = world.sessions_dir / "sessions.json"
    if name == "(missing)":
        assert not target.exists()
        return
    if name == "(directory)":
        # Unreadable as a file for every process, root included (file modes would not stop root).
        target.mkdir()
        return
    shutil.copyfile(INDEX_FIXTURES / name, target)
    world.snapshot["index_bytes"] = target.read_bytes()


def _call(world: SesWorld, action: Callable[[], Any]) -> None:
    world.action = action
    try:
        world.result = action()
    except Exception as exc:
        world.error = exc


# --------------------------------------------------------------------------------------------------------
# Session usage and cost (seed 001)
# --------------------------------------------------------------------------------------------------------


@given("新建空 `SessionUsage`")
def ses_given_empty_usage(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.usage = synapse.create_empty_usage(SONNET)
    assert ses_world.usage == _empty_usage(SONNET), (
        f"create_empty_usage({SONNET!r}) should give zero totals, no rounds and totalCost None; "
        f"got {ses_world.usage!r}"
    )


@given("模型无 pricing 配置且已有 usage round")
def ses_given_unpriced_round(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    ses_world.model = row["model"]
    ses_world.round_template = _round(row)


@given(parsers.parse("累积时使用的定价表为 {kind}"))
def ses_given_pricing_kind(synapse: Implementation, ses_world: SesWorld, kind: str) -> None:
    tables: dict[str, dict[str, dict[str, float]] | None] = {
        "无定价表": None,
        "只含其他模型价格的定价表": SONNET_PRICING,
    }
    assert kind in tables, f"unknown pricing case {kind!r}"
    assert ses_world.model not in (tables[kind] or {})
    empty = synapse.create_empty_usage(ses_world.model)
    ses_world.usage = synapse.accumulate_usage(empty, dict(ses_world.round_template), tables[kind])
    assert len(ses_world.usage["rounds"]) == 1, f"one round was accumulated, got {ses_world.usage!r}"
    assert ses_world.usage["totalCost"] is None, (
        f"without a price for {ses_world.model!r} totalCost must stay None (unknown, not $0), "
        f"got {ses_world.usage['totalCost']!r}"
    )


@when("调用 `formatCostOutput(usage)`")
def ses_when_format_cost(synapse: Implementation, ses_world: SesWorld) -> None:
    assert ses_world.usage is not None
    ses_world.output = synapse.format_cost_output(ses_world.usage)


@then(parsers.parse("输出应为 `{pattern}`"))
def ses_then_output_matches(ses_world: SesWorld, pattern: str) -> None:
    output = ses_world.output
    assert isinstance(output, str), f"formatCostOutput should return a string, got {output!r}"
    pieces = [p.strip() for p in pattern.split("...")]
    assert output.startswith(pieces[0]), f"the cost line should start with {pieces[0]!r}: {output!r}"
    assert output.endswith(pieces[-1]), f"the cost line should end with {pieces[-1]!r}: {output!r}"
    position = 0
    for piece in pieces:
        found = output.find(piece, position)
        assert found >= 0, f"the cost line should contain {piece!r} in this order: {output!r}"
        position = found + len(piece)


@then("完整输出应为:")
def ses_then_output_exact(ses_world: SesWorld, docstring: str) -> None:
    assert ses_world.output == docstring.strip(), (
        f"the cost line should be exactly the original's format:\n  expected {docstring.strip()!r}\n"
        f"  got      {ses_world.output!r}"
    )


@then("输出中的 `Cost` 应为 `N/A`")
def ses_then_cost_na(ses_world: SesWorld) -> None:
    output = ses_world.output or ""
    assert "Cost: " in output, f"the cost line should have a 'Cost: ' field: {output!r}"
    cost = output.rsplit("Cost: ", 1)[1].strip()
    assert cost == "N/A", f"with rounds but no price the cost should read N/A, got {cost!r} in {output!r}"


@given(parsers.parse("`SYNAPSE_MAX_ROUNDS_KEPT` 为 {setting}"))
def ses_given_max_rounds_setting(ses_world: SesWorld, monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    if setting == "未设置":
        monkeypatch.delenv("SYNAPSE_MAX_ROUNDS_KEPT", raising=False)
        ses_world.snapshot["limit"] = 50
    else:
        setting = cells.expand(setting)  # {U+FEFF}
        monkeypatch.setenv("SYNAPSE_MAX_ROUNDS_KEPT", setting)
        # Read like parseInt ("5.9" and "2 轮" are 5 and 2; ASCII digits only, after white space that
        # includes a byte-order mark); zero (or less), or no digits, is no limit a user meant: it falls
        # back to the default of 50.
        found = re.match(r"[ \t\ufeff]*([+-]?[0-9]+)", setting)
        ses_world.snapshot["limit"] = int(found[1]) if found and int(found[1]) > 0 else 50


@given("连续累积超过 `MAX_ROUNDS_KEPT` 的 usage 轮次")
def ses_given_many_rounds(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    ses_world.planned_rounds = int(row["轮次"])
    ses_world.round_template = {key: int(row[key]) for key in ROUND_KEYS[1:]}
    assert ses_world.planned_rounds > ses_world.snapshot["limit"], "the scenario must exceed the limit"


@given(
    "第 i 轮的 `inputOther` 为 i，模型 `claude-sonnet-4-20250514` 按每百万 token 3 / 15 / 0.3 / 3.75 美元计价"
)
def ses_given_round_numbering(ses_world: SesWorld) -> None:
    ses_world.model = SONNET
    ses_world.pricing = SONNET_PRICING


def _nth_round(world: SesWorld, i: int) -> dict[str, int]:
    return {"inputOther": i, **world.round_template}


@when("调用 `accumulateUsage` 完成累积")
def ses_when_accumulate_many(synapse: Implementation, ses_world: SesWorld) -> None:
    usage = synapse.create_empty_usage(ses_world.model)
    for i in range(1, ses_world.planned_rounds + 1):
        usage = synapse.accumulate_usage(usage, _nth_round(ses_world, i), ses_world.pricing)
    ses_world.usage = usage


@then("`rounds.length` 应被截断到上限")
def ses_then_rounds_trimmed(ses_world: SesWorld) -> None:
    assert ses_world.usage is not None
    limit = ses_world.snapshot["limit"]
    assert len(ses_world.usage["rounds"]) == limit, (
        f"after {ses_world.planned_rounds} rounds only MAX_ROUNDS_KEPT={limit} should be kept, "
        f"got {len(ses_world.usage['rounds'])}"
    )


@then(parsers.parse("保留的应是最近 {limit:d} 轮，按时间顺序"))
def ses_then_recent_rounds(ses_world: SesWorld, limit: int) -> None:
    assert ses_world.usage is not None
    n = ses_world.planned_rounds
    expected = [_nth_round(ses_world, i) for i in range(n - limit + 1, n + 1)]
    kept = [{key: r.get(key) for key in ROUND_KEYS} for r in ses_world.usage["rounds"]]
    assert kept == expected, (
        f"the kept rounds should be rounds {n - limit + 1}..{n} in order (inputOther = round number), "
        f"got inputOther {[r.get('inputOther') for r in kept]}"
    )


@then("total 字段仍保留完整累计值")
def ses_then_totals_complete(ses_world: SesWorld) -> None:
    usage = ses_world.usage
    assert usage is not None
    rounds = [_nth_round(ses_world, i) for i in range(1, ses_world.planned_rounds + 1)]
    for total, key in zip(TOTAL_KEYS, ROUND_KEYS, strict=True):
        expected = sum(r[key] for r in rounds)
        assert usage[total] == expected, f"{total} should count every round ({expected}), got {usage[total]}"
    prices = SONNET_PRICING[SONNET]
    cost = sum(
        (
            r["inputOther"] * prices["inputPerMillion"]
            + r["output"] * prices["outputPerMillion"]
            + r["inputCacheRead"] * prices["cacheReadPerMillion"]
            + r["inputCacheCreation"] * prices["cacheWritePerMillion"]
        )
        / 1_000_000
        for r in rounds
    )
    assert usage["totalCost"] == pytest.approx(cost, rel=1e-9), (
        f"totalCost should price every round, trimmed ones too ({cost}), got {usage['totalCost']!r}"
    )
    assert usage["model"] == ses_world.model, (
        f"the model should stay {ses_world.model!r}, got {usage['model']!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Session exception paths (seed 000)
# --------------------------------------------------------------------------------------------------------

# The injected failure: the process may not write files larger than this (RLIMIT_FSIZE), as on a full
# disk or an exhausted quota.  Every implementation, whatever its write path, hits it when it writes
# the new history, and it does not depend on which Python function the implementation calls.
REWRITE_FILE_SIZE_LIMIT = 64 * 1024
REWRITE_MESSAGE_COUNT = 20
REWRITE_MESSAGE_CHARS = 8 * 1024
# A rewrite killed part way: 32 MiB, so the write is still going on when the kill arrives.
KILLED_REWRITE_MESSAGE_COUNT = 256
KILLED_REWRITE_MESSAGE_CHARS = 128 * 1024


def _listing(directory: Path) -> set[str]:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}


@given("会话已有历史文件且重写阶段写入失败")
def ses_given_history_for_rewrite(
    synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]]
) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    messages = [_text_message(row["role"], row["text"]) for row in _table(datatable)]
    session.append_message(messages)
    ses_world.session = session
    assert session.history_path.is_file(), f"appending should create {session.history_path}"
    ses_world.snapshot.update(
        messages=messages,
        history_bytes=session.history_path.read_bytes(),
        listing=_listing(ses_world.sessions_dir),
        title=session.title,
        message_count=session.message_count,
    )


@given("重写时磁盘空间不足：进程可写的文件大小上限为 64 KiB，而新历史约有 160 KiB")
def ses_given_disk_full(ses_world: SesWorld) -> None:
    new_history = [
        _text_message("user" if i % 2 == 0 else "assistant", f"第 {i} 条：" + "x" * REWRITE_MESSAGE_CHARS)
        for i in range(REWRITE_MESSAGE_COUNT)
    ]
    size = sum(len(json.dumps(m, ensure_ascii=False).encode()) for m in new_history)
    assert size > 2 * REWRITE_FILE_SIZE_LIMIT
    assert len(ses_world.snapshot["history_bytes"]) < REWRITE_FILE_SIZE_LIMIT
    ses_world.snapshot["new_history"] = new_history


@when("调用 `rewriteHistory`")
def ses_when_rewrite(synapse: Implementation, ses_world: SesWorld) -> None:
    session = ses_world.session
    new_history = ses_world.snapshot["new_history"]
    # The implementation's process may write at most 64 KiB per file for this call: past it the write
    # fails with EFBIG, the plain I/O error a full disk gives.
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, REWRITE_FILE_SIZE_LIMIT):
        try:
            session.rewrite_history(new_history)
        except Exception as exc:
            ses_world.error = exc


@then("应抛出带原因错误")
def ses_then_error_with_cause(ses_world: SesWorld) -> None:
    error = ses_world.error
    assert error is not None, "rewriteHistory should raise when the new history cannot be written"
    text = str(error)
    # The original's words (session-persistence.ts): `Failed to rewrite session history: ${message}`.
    assert text.startswith("Failed to rewrite session history: "), (
        f"the error should begin as the original's does, 'Failed to rewrite session history: ' and the "
        f"cause, got {text!r}"
    )
    # The cause as any runtime names it: the C library's text ("File too large") or the errno name.
    causes = (os.strerror(errno.EFBIG).lower(), "efbig")
    assert any(cause in text.lower() for cause in causes), (
        f"the error should carry its cause ({' or '.join(causes)}), got {text!r}"
    )


@then("原历史内容应保持一致不被破坏")
def ses_then_history_intact(ses_world: SesWorld) -> None:
    session = ses_world.session
    before: bytes = ses_world.snapshot["history_bytes"]
    assert session.history_path.read_bytes() == before, (
        "the history file should be byte-identical after the failure"
    )
    assert session.load_history() == ses_world.snapshot["messages"], (
        "loadHistory should still give the old messages"
    )
    assert session.message_count == ses_world.snapshot["message_count"], (
        f"messageCount should stay {ses_world.snapshot['message_count']}, got {session.message_count}"
    )
    assert session.title == ses_world.snapshot["title"], (
        f"the title should stay {ses_world.snapshot['title']!r}, got {session.title!r}"
    )


@then("会话目录中不应残留临时文件")
def ses_then_no_temp_files(ses_world: SesWorld) -> None:
    after = _listing(ses_world.sessions_dir)
    before: set[str] = ses_world.snapshot["listing"]
    assert after == before, (
        f"a failed rewrite should leave the sessions directory as it was; "
        f"new: {sorted(after - before)}, gone: {sorted(before - after)}"
    )


@given("记下会话目录中的文件")
def ses_given_listing(ses_world: SesWorld) -> None:
    ses_world.snapshot["listing"] = _listing(ses_world.sessions_dir)


@then("会话目录中不应出现新的文件")
def ses_then_no_new_files(ses_world: SesWorld) -> None:
    before: set[str] = ses_world.snapshot["listing"]
    new = sorted(_listing(ses_world.sessions_dir) - before)
    assert not new, f"a write that succeeded should leave no file behind that was not there before: {new}"


@given("会话已有 usage 统计和 offload 文件")
def ses_given_usage_and_offload(
    synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]]
) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    session.append_message([_text_message("user", "读取日志文件"), _text_message("assistant", "好的")])
    (row,) = _table(datatable)
    session.update_usage(_round(row))
    offloaded = session.offload_dir / "offloaded"
    offloaded.mkdir(parents=True, exist_ok=True)
    (offloaded / "0b9c6a2e-tool-output.txt").write_text("很长的工具输出\n" * 100, encoding="utf-8")
    (offloaded / "4f1d7e93-tool-output.json").write_text('{"lines": 1000}', encoding="utf-8")
    usage = session.get_usage()
    assert [usage[k] for k in TOTAL_KEYS] == [int(row[k]) for k in ROUND_KEYS], (
        f"usage before clear: {usage!r}"
    )
    assert usage["totalCost"] is not None, f"priced usage should have a cost before clear: {usage!r}"
    ses_world.session = session


@when("执行 `clear()`")
def ses_when_clear(ses_world: SesWorld) -> None:
    ses_world.session.clear()


@then("usage 聚合字段应重置到初始状态")
def ses_then_usage_reset(ses_world: SesWorld) -> None:
    usage = ses_world.session.get_usage()
    assert usage == _empty_usage(SONNET), (
        f"after clear() usage should be zero totals, no rounds, totalCost None, model kept; got {usage!r}"
    )


@then("offload 目录应被删除")
def ses_then_offload_dir_gone(ses_world: SesWorld) -> None:
    offload_dir: Path = ses_world.session.offload_dir
    assert not (offload_dir / "offloaded").exists(), (
        f"{offload_dir / 'offloaded'} should be deleted by clear()"
    )
    assert not offload_dir.exists(), f"the per-session directory {offload_dir} should be deleted by clear()"


@then("历史文件应保留且为空")
def ses_then_history_empty(ses_world: SesWorld) -> None:
    session = ses_world.session
    assert session.history_path.is_file(), f"clear() should keep the history file {session.history_path}"
    assert session.history_path.read_bytes() == b"", "clear() should empty the history file"
    assert session.load_history() == [], "loadHistory after clear() should be []"
    assert session.message_count == 0, f"messageCount after clear() should be 0, got {session.message_count}"


@then("索引中的 usage 与消息数也应重置")
def ses_then_index_reset(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert entry.get("messageCount") == 0, f"the index should record messageCount 0 after clear(): {entry!r}"
    assert entry.get("usage") == _empty_usage(SONNET), (
        f"the index should record the reset usage after clear(): {entry.get('usage')!r}"
    )


@given("索引中已持久化 usage 的 totals 与 rounds")
def ses_given_persisted_usage(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    _place_index(ses_world, row["index"])
    ses_world.snapshot["session_id"] = row["sessionId"]
    ses_world.snapshot["caller_model"] = row["调用方传入的 model"]
    entry = _index_entry(ses_world.sessions_dir, row["sessionId"])
    assert entry["usage"]["rounds"] and entry["usage"]["totalCost"] is not None
    ses_world.snapshot["entry"] = entry


@when("通过 `Session.find()` 恢复该会话")
def ses_when_find_persisted(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["session_id"]
    session = synapse.find_session(
        session_id, ses_world.sessions_dir, model=ses_world.snapshot["caller_model"]
    )
    assert session is not None, f"Session.find({session_id!r}) should find the session listed in the index"
    assert session.id == session_id, f"found session id should be {session_id!r}, got {session.id!r}"
    ses_world.session = session


@then("`getUsage()` 应返回与索引一致的累计值")
def ses_then_usage_matches_index(ses_world: SesWorld) -> None:
    usage = ses_world.session.get_usage()
    stored = ses_world.snapshot["entry"]["usage"]
    for key in TOTAL_KEYS:
        assert usage.get(key) == stored[key], (
            f"{key} should be restored as {stored[key]}, got {usage.get(key)!r}"
        )
    assert usage.get("rounds") == stored["rounds"], f"rounds should be restored as {stored['rounds']!r}"
    assert usage.get("totalCost") == pytest.approx(stored["totalCost"]), (
        f"totalCost should be restored as {stored['totalCost']}, got {usage.get('totalCost')!r}"
    )


@then("model 字段应与索引保持一致")
def ses_then_model_matches_index(ses_world: SesWorld) -> None:
    stored = ses_world.snapshot["entry"]["usage"]["model"]
    model = ses_world.session.get_usage().get("model")
    assert model == stored, (
        f"the index's usage model should win over the caller's {ses_world.snapshot['caller_model']!r}: "
        f"expected {stored!r}, got {model!r}"
    )


@then("标题与消息数应取自索引")
def ses_then_title_count_from_index(ses_world: SesWorld) -> None:
    entry = ses_world.snapshot["entry"]
    session = ses_world.session
    assert session.title == entry["title"], f"title should be {entry['title']!r}, got {session.title!r}"
    assert session.message_count == entry["messageCount"], (
        f"messageCount should be {entry['messageCount']}, got {session.message_count}"
    )


@then("修改 `getUsage()` 的返回值不应改变会话的 usage")
def ses_then_usage_is_copy(ses_world: SesWorld) -> None:
    session = ses_world.session
    before = json.loads(json.dumps(session.get_usage()))
    copy_ = session.get_usage()
    copy_["totalInputOther"] = 10**9
    copy_["rounds"].append({"inputOther": 1, "output": 1, "inputCacheRead": 1, "inputCacheCreation": 1})
    if copy_["rounds"][:1]:
        copy_["rounds"][0]["output"] = -1
    assert session.get_usage() == before, (
        "getUsage() should return a deep copy; mutating it changed the session"
    )


# --------------------------------------------------------------------------------------------------------
# Session robustness (seed 004)
# --------------------------------------------------------------------------------------------------------


@given("history 文件中部分行为非法 JSON")
def ses_given_corrupt_history(synapse: Implementation, ses_world: SesWorld, docstring: str) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    session.history_path.parent.mkdir(parents=True, exist_ok=True)
    session.history_path.write_text(docstring.strip() + "\n", encoding="utf-8")
    ses_world.session = session
    ses_world.snapshot["bad_lines"] = sum(1 for line in docstring.splitlines() if not _is_json(line))


@given(
    parsers.re(
        r"^history 文件有 (?P<total>\d+) 行合法消息，"
        r"其中第 (?P<first>\d+) 行与第 (?P<second>\d+) 行为非法 JSON$"
    )
)
def ses_given_long_corrupt_history(
    synapse: Implementation, ses_world: SesWorld, total: str, first: str, second: str
) -> None:
    """Long enough that a reader taking the file in blocks meets the bad lines past its first block."""
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    bad = {int(first), int(second)}
    lines: list[str] = []
    expected: list[dict[str, Any]] = []
    for number in range(1, int(total) + 1):
        if number in bad:
            lines.append(f'{{"role":"user","content":[{{"type":"text","text":"第 {number} 行被截断')
            continue
        message = _text_message("user" if number % 2 else "assistant", f"第 {number} 行的消息 🧩")
        lines.append(json.dumps(message, ensure_ascii=False))
        expected.append(message)
    session.history_path.parent.mkdir(parents=True, exist_ok=True)
    session.history_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ses_world.session = session
    ses_world.snapshot["expected"] = expected


@then(parsers.parse("应按顺序返回其余 {count:d} 条消息"))
def ses_then_rest_in_order(ses_world: SesWorld, count: int) -> None:
    assert ses_world.error is None, f"loadHistory should skip the corrupt lines, raised {ses_world.error!r}"
    expected = ses_world.snapshot["expected"]
    assert len(expected) == count, f"setting up: the history holds {len(expected)} valid lines, not {count}"
    result = ses_world.result
    assert isinstance(result, list) and len(result) == count, (
        f"{count} messages expected, got {len(result) if isinstance(result, list) else result!r}"
    )
    assert result == expected, "the valid lines should load in file order, each unchanged"


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


@when("调用 `session.loadHistory()`")
def ses_when_load_history(ses_world: SesWorld) -> None:
    _call(ses_world, ses_world.session.load_history)


@then("非法行应被跳过")
def ses_then_bad_lines_skipped(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    assert ses_world.error is None, (
        f"loadHistory should not raise on corrupt lines, raised {ses_world.error!r}"
    )
    messages = ses_world.result
    assert isinstance(messages, list), f"loadHistory should return a list, got {messages!r}"
    assert all(isinstance(m, dict) for m in messages), (
        f"only parsed messages should be returned: {messages!r}"
    )
    assert _synapse_warnings(caplog), (
        "skipping a corrupt history line should log a warning on a synapse.* logger"
    )


@then("其余合法消息仍可成功加载")
def ses_then_good_lines_loaded(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    expected = [_text_message(row["role"], row["text"]) for row in _table(datatable)]
    assert ses_world.result == expected, (
        f"the valid lines should load in order: expected {expected!r}, got {ses_world.result!r}"
    )


@given(parsers.re(r"^`sessions\.json` 非法或(?: schema 不匹配|不可读)$"))
def ses_given_bad_index(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    _place_index(ses_world, row["index"])


@given("会话索引为空")
def ses_given_empty_index(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    _place_index(ses_world, row["index"])


@when("调用 `Session.list()`")
def ses_when_list(synapse: Implementation, ses_world: SesWorld) -> None:
    _call(ses_world, lambda: synapse.list_sessions(ses_world.sessions_dir))


@when("调用 `Session.find(sessionId)`")
def ses_when_find(synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    _call(ses_world, lambda: synapse.find_session(row["sessionId"], ses_world.sessions_dir))


@when("调用 `Session.continue()`")
def ses_when_continue(synapse: Implementation, ses_world: SesWorld) -> None:
    _call(ses_world, lambda: synapse.continue_session(ses_world.sessions_dir))


@then("应返回 `[]`")
def ses_then_returns_empty_list(ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"the call should return [] instead of raising {ses_world.error!r}"
    assert ses_world.result == [], f"the call should return [], got {ses_world.result!r}"


@then("应返回 `null`")
def ses_then_returns_null(ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"the call should return None instead of raising {ses_world.error!r}"
    assert ses_world.result is None, f"the call should return None, got {ses_world.result!r}"


@then("不应抛出未捕获异常")
def ses_then_no_exception(ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"the call raised {ses_world.error!r}"
    assert ses_world.action is not None
    try:
        again = ses_world.action()
    except Exception as exc:
        raise AssertionError(f"calling it again raised {exc!r}; it should never raise here") from exc
    assert again == ses_world.result, f"calling it again should give the same result, got {again!r}"


@then("损坏的 `sessions.json` 应原样保留")
def ses_then_corrupt_index_untouched(ses_world: SesWorld) -> None:
    path = ses_world.sessions_dir / "sessions.json"
    assert path.is_file() and path.read_bytes() == ses_world.snapshot["index_bytes"], (
        "reading a corrupt sessions.json must not change or remove it"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: index consistency fixes
# --------------------------------------------------------------------------------------------------------


@given("会话已有由第一条用户消息生成的标题")
def ses_given_titled_session(
    synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]]
) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    (row,) = _table(datatable)
    session.append_message(_text_message(row["role"], row["text"]))
    assert session.title == row["text"], (
        f"the title should come from the first user message, got {session.title!r}"
    )
    entry = _index_entry(ses_world.sessions_dir, session.id)
    assert entry.get("title") == row["text"], f"the index should record the title: {entry!r}"
    ses_world.session = session


@then("会话标题应为空")
def ses_then_title_none(ses_world: SesWorld) -> None:
    assert ses_world.session.title is None, f"clear() should reset the title, got {ses_world.session.title!r}"


@then("索引中该会话不应再有标题")
def ses_then_index_title_cleared(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert entry.get("title") is None, f"clear() should remove the title from sessions.json too: {entry!r}"


@then("通过 `Session.find()` 恢复的会话也没有标题")
def ses_then_found_without_title(synapse: Implementation, ses_world: SesWorld) -> None:
    found = synapse.find_session(ses_world.session.id, ses_world.sessions_dir)
    assert found is not None, "the cleared session should still be in the index"
    assert found.title is None, (
        f"a cleared session should be resumed without its old title, got {found.title!r}"
    )


@given("一个空的会话目录")
def ses_given_empty_dir(ses_world: SesWorld) -> None:
    assert list(ses_world.sessions_dir.iterdir()) == []


@when(parsers.parse("{threads:d} 个线程同时各创建 {each:d} 个会话"))
def ses_when_concurrent_creates(
    synapse: Implementation, ses_world: SesWorld, threads: int, each: int
) -> None:
    # Resolved here, in the step's own thread: an implementation without sessions is not applicable, which
    # a worker thread could only report as one more error.
    create_session = synapse.create_session
    barrier = threading.Barrier(threads)
    ids: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker() -> None:
        try:
            barrier.wait(timeout=30)
            for _ in range(each):
                session = create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
                with lock:
                    ids.append(session.id)
        except BaseException as exc:
            with lock:
                errors.append(exc)

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in workers), "concurrent session creation did not finish within 120 s"
    assert not errors, f"creating sessions concurrently raised: {errors!r}"
    assert len(set(ids)) == threads * each, (
        f"expected {threads * each} distinct session ids, got {len(set(ids))}"
    )
    ses_world.snapshot["ids"] = set(ids)


@when(parsers.parse("{procs:d} 个进程同时各创建 {each:d} 个会话"))
def ses_when_process_creates(synapse: Implementation, ses_world: SesWorld, procs: int, each: int) -> None:
    # Checked before any process starts: without sessions the scenario is not applicable, not failed.
    assert callable(synapse.create_session)

    def create(impl: Implementation) -> list[str]:
        return [
            impl.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING).id
            for _ in range(each)
        ]

    created = probes.in_parallel_processes(synapse, procs, create)
    ids = {session_id for batch in created for session_id in batch}
    assert len(ids) == procs * each, f"expected {procs * each} distinct session ids, got {len(ids)}"
    ses_world.snapshot["ids"] = ids


@when(parsers.parse("在实现进程只能再打开 `{headroom:d}` 个文件时创建 `{count:d}` 个会话，各追加 1 条消息"))
def ses_when_create_with_few_descriptors(
    synapse: Implementation, ses_world: SesWorld, headroom: int, count: int
) -> None:
    """A descriptor each index or history write leaves open is one fewer for the next: the writes after
    the leak fail."""
    sessions = []
    limit = probes.lowest_free_descriptor(synapse) + headroom
    with probes.resource_limit(synapse, probes.RLIMIT_NOFILE, limit):
        for number in range(count):
            session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
            session.append_message([_text_message("user", f"第 {number} 个会话")])
            sessions.append(session)
    ses_world.snapshot["ids"] = {session.id for session in sessions}
    ses_world.snapshot["histories"] = [session.history_path for session in sessions]


@when(parsers.parse('向会话追加一条文本为 "{text}" 的用户消息'))
def ses_when_append_escaped_text(ses_world: SesWorld, text: str) -> None:
    """``\\udXXX`` in the text stands for that UTF-16 unit, so a lone surrogate can be written down."""
    decoded = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    ses_world.snapshot["text"] = decoded
    _call(ses_world, lambda: ses_world.session.append_message([_text_message("user", decoded)]))


@then(parsers.parse("历史文件应是合法的 UTF-8，其中该代理项写作 JSON 转义 `{escape}`，其余文字原样写入"))
def ses_then_surrogate_escaped(ses_world: SesWorld, escape: str) -> None:
    assert ses_world.error is None, f"the append should succeed, raised {ses_world.error!r}"
    data = Path(ses_world.session.history_path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AssertionError(f"the history file should be valid UTF-8: {exc}; {data!r}") from exc
    lines = text.splitlines()
    assert len(lines) == 1 and escape in lines[0].lower(), (
        f"the history should hold one line writing the surrogate as {escape}: {lines!r}"
    )
    others = [part for part in re.split(r"[\ud800-\udfff]", ses_world.snapshot["text"]) if part.strip()]
    assert others and all(part in lines[0] for part in others), (
        f"the rest of the text should be written as it is ({others!r}), not escaped: {lines[0]!r}"
    )
    assert json.loads(lines[0]) == _text_message("user", ses_world.snapshot["text"]), (
        f"the line should be the appended message: {lines[0]!r}"
    )


@then(
    parsers.parse(
        "`sessions.json` 应以 2 个空格逐层缩进，标题中的代理项写作 JSON 转义 `{escape}`，其余文字原样写入"
    )
)
def ses_then_index_pretty_escaped(ses_world: SesWorld, escape: str) -> None:
    assert ses_world.error is None, f"the append should succeed, raised {ses_world.error!r}"
    data = (ses_world.sessions_dir / "sessions.json").read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AssertionError(f"sessions.json should be valid UTF-8: {exc}; {data!r}") from exc
    _assert_indented_by_two(text)
    title = ses_world.snapshot["text"]
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert entry.get("title") == title, (
        f"the index should hold the title {title!r}, got {entry.get('title')!r}"
    )
    others = [part for part in re.split(r"[\ud800-\udfff]", title) if part.strip()]
    assert escape in text.lower() and all(part in text for part in others), (
        f"the title should be written with the surrogate as {escape} and the rest as it is ({others!r}): "
        f"{text!r}"
    )


@then("`session.loadHistory()` 读回的文本应与追加的相同")
def ses_then_surrogate_reloaded(ses_world: SesWorld) -> None:
    loaded = ses_world.session.load_history()
    assert loaded == [_text_message("user", ses_world.snapshot["text"])], (
        f"the history should read back the appended text unchanged, got {loaded!r}"
    )


@then("每个会话的历史文件都应恰有 1 行消息")
def ses_then_one_line_each(ses_world: SesWorld) -> None:
    for path in ses_world.snapshot["histories"]:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["role"] == "user", (
            f"{path} should hold the one appended message, holds {lines!r}"
        )


@then(parsers.parse("`Session.list()` 应列出全部 {count:d} 个会话"))
def ses_then_all_listed(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    listed = [e.get("id") for e in synapse.list_sessions(ses_world.sessions_dir)]
    missing = ses_world.snapshot["ids"] - set(listed)
    assert not missing, (
        f"{len(missing)} of {count} sessions were lost from the index: {sorted(missing)[:5]}..."
    )
    assert len(listed) == count, f"the index should list exactly {count} sessions, got {len(listed)}"


@then(parsers.parse("`sessions.json` 应是合法的索引，恰好含这 {count:d} 个条目"))
def ses_then_index_complete(ses_world: SesWorld, count: int) -> None:
    index = _read_index(ses_world.sessions_dir)
    ids = [e.get("id") for e in index["sessions"]]
    assert len(ids) == count and set(ids) == ses_world.snapshot["ids"], (
        f"sessions.json should hold the {count} created sessions once each, got {len(ids)} entries"
    )
    assert isinstance(index.get("updatedAt"), str), "sessions.json should keep its updatedAt"


@when("创建一个新会话")
def ses_when_create_one(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)


@then("`Session.list()` 应只列出新会话")
def ses_then_only_new_listed(synapse: Implementation, ses_world: SesWorld) -> None:
    listed = [e.get("id") for e in synapse.list_sessions(ses_world.sessions_dir)]
    assert listed == [ses_world.session.id], f"the new index should list only the new session, got {listed!r}"


@then("损坏的索引应以原内容另存在 `sessions.json` 旁")
def ses_then_corrupt_backup_kept(ses_world: SesWorld) -> None:
    corrupt: bytes = ses_world.snapshot["index_bytes"]
    backups = [
        p
        for p in ses_world.sessions_dir.iterdir()
        if p.is_file() and p.name != "sessions.json" and p.read_bytes() == corrupt
    ]
    assert backups, "the corrupt sessions.json should be kept next to the new index with its original bytes"
    ses_world.snapshot["backup"] = backups[0]


@then("备份文件名应以 `sessions.json.corrupt-` 开头")
def ses_then_backup_prefix(ses_world: SesWorld) -> None:
    backup: Path = ses_world.snapshot["backup"]
    assert backup.name.startswith("sessions.json.corrupt-"), (
        f"the corrupt index backup should be named sessions.json.corrupt-<stamp>, got {backup.name!r}"
    )


@then("应记录 warning 指出备份文件的位置")
def ses_then_backup_warning(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    backup: Path = ses_world.snapshot["backup"]
    messages = [r.getMessage() for r in _synapse_warnings(caplog)]
    assert any(backup.name in m for m in messages), (
        f"a synapse.* warning should name the backup file {backup.name!r}; warnings: {messages!r}"
    )


@given(parsers.parse("`SYNAPSE_HOME` 指向一个目录，其中 `pricing.json` 为 {pricing}"))
def ses_given_pricing_file(ses_world: SesWorld, pricing: str) -> None:
    home = Path(os.environ["SYNAPSE_HOME"])
    assert home.is_relative_to(ses_world.root), "SYNAPSE_HOME must point into the scenario's directory"
    if pricing != "(missing)":
        shutil.copyfile(PRICING_FIXTURES / pricing, home / "pricing.json")


@given("会话模型为 `claude-sonnet-4-20250514`")
def ses_given_model(ses_world: SesWorld) -> None:
    ses_world.model = SONNET


@when("会话记录一轮 usage")
def ses_when_record_usage(
    synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=ses_world.model)
    caplog.clear()
    (row,) = _table(datatable)
    session.update_usage(_round(row))
    ses_world.session = session


@when(parsers.parse("`SYNAPSE_HOME` 下的 `pricing.json` 随后改为 {pricing}"))
def ses_when_pricing_file_changes(ses_world: SesWorld, pricing: str) -> None:
    home = Path(os.environ["SYNAPSE_HOME"])
    assert home.is_relative_to(ses_world.root), "SYNAPSE_HOME must point into the scenario's directory"
    shutil.copyfile(PRICING_FIXTURES / pricing, home / "pricing.json")


@when("同一会话再记录一轮 usage")
@when("该会话记录一轮 usage")
def ses_when_record_another_round(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    ses_world.session.update_usage(_round(row))


@when(parsers.parse("会话记录一轮只含 {partial} 的 usage"))
def ses_when_record_partial_usage(synapse: Implementation, ses_world: SesWorld, partial: str) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=ses_world.model)
    session.update_usage(json.loads(partial))
    ses_world.session = session


def _finite_totals(usage: Any) -> list[str]:
    """The total keys of a usage record that are missing or not finite numbers."""
    values = {key: (usage or {}).get(key) for key in TOTAL_KEYS}
    return [
        f"{key}={value!r}"
        for key, value in values.items()
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
    ]


@then("`Session.find()` 仍应找到该会话，其 usage 的各项累计值都是有限数字")
def ses_then_partial_round_found(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.session.id
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    assert found is not None, f"Session.find({session_id!r}) should still find the session after the round"
    bad = _finite_totals(found.get_usage())
    assert not bad, f"the found session's usage totals should be finite numbers: {bad}"


@then("`sessions.json` 中该会话 usage 的各项累计值都是有限数字")
def ses_then_partial_round_indexed(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    bad = _finite_totals(entry.get("usage"))
    assert not bad, f"sessions.json should hold finite usage totals for the session: {bad}"


@then(parsers.parse("`totalCost` 应为 {cost}"))
def ses_then_total_cost(ses_world: SesWorld, cost: str) -> None:
    usage = ses_world.session.get_usage()
    stored = _index_entry(ses_world.sessions_dir, ses_world.session.id).get("usage") or {}
    if cost == "null":
        assert usage["totalCost"] is None, (
            f"without usable pricing totalCost should stay None, got {usage['totalCost']!r}"
        )
        assert stored.get("totalCost") is None, f"the index should record totalCost null: {stored!r}"
    else:
        assert usage["totalCost"] == pytest.approx(float(cost)), (
            f"totalCost should be {cost}, got {usage['totalCost']!r}"
        )
        assert stored.get("totalCost") == pytest.approx(float(cost)), (
            f"the index should record totalCost {cost}: {stored!r}"
        )


@then(parsers.parse("是否记录了 pricing warning: {answer}"))
def ses_then_pricing_warning(caplog: pytest.LogCaptureFixture, answer: str) -> None:
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    if answer == "是":
        assert warnings, "a missing or invalid pricing.json should log a warning on a synapse.* logger"
    else:
        assert not warnings, f"a valid pricing.json should not log warnings, got {warnings!r}"


# --------------------------------------------------------------------------------------------------------
# Stop hooks (seed 001)
# --------------------------------------------------------------------------------------------------------


@dataclass
class HookWorld:
    """The registry, executor and everything the hooks and callbacks saw."""

    cwd: str
    registry: Any = None
    executor: Any = None
    loader_calls: list[Any] = field(default_factory=list)
    hook_calls: dict[str, list[Any]] = field(default_factory=dict)
    part_calls: list[dict[str, Any]] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    should_execute: bool | None = None
    final: str = ""
    messages: list[dict[str, Any]] = field(default_factory=list)
    response: str | None = None
    error: BaseException | None = None
    hook_messages: list[str] = field(default_factory=list)
    progress: str = ""
    parts_before_return: int | None = None
    progress_message: str = ""


@pytest.fixture
def hook_world(tmp_path: Path) -> HookWorld:
    return HookWorld(cwd=str(tmp_path))


def _hook_executor(synapse: Implementation, world: HookWorld, *, enabled: bool, on_part: Any = None) -> None:
    world.registry = synapse.stop_hook_registry()

    def loader(registry: Any) -> None:
        world.loader_calls.append(registry)

    world.executor = synapse.stop_hook_executor(
        enabled=enabled, registry=world.registry, on_message_part=on_part, loader=loader
    )


def _register_hook(world: HookWorld, name: str, result: Any, *, error: Exception | None = None) -> None:
    """A hook that records each call, then returns ``result`` or raises ``error``."""
    world.hook_calls[name] = []

    async def hook(context: Any) -> Any:
        world.hook_calls[name].append(context)
        if error is not None:
            raise error
        return result

    world.registry.register(name, hook)


def _register_registering_hook(
    world: HookWorld, name: str, new_name: str, new_result: Any, result: Any
) -> None:
    """A hook that registers the hook ``new_name`` (returning ``new_result``) each time it runs."""
    world.hook_calls[name] = []

    async def hook(context: Any) -> Any:
        world.hook_calls[name].append(context)
        _register_hook(world, new_name, new_result)
        return result

    world.registry.register(name, hook)


def _execute(world: HookWorld, final: str) -> None:
    world.final = final
    world.messages = [_text_message("user", "整理一下这个仓库"), _text_message("assistant", final)]
    try:
        world.response = run(
            world.executor.execute_and_append(
                final, session_id="session-hook-test", messages=world.messages, cwd=world.cwd
            )
        )
    except Exception as exc:
        world.error = exc


@given("`StopHookExecutor.enabled=false`")
def hook_given_disabled(synapse: Implementation, hook_world: HookWorld) -> None:
    _hook_executor(synapse, hook_world, enabled=False)


@given("注册表中已有返回消息的 stop hook")
def hook_given_registered(hook_world: HookWorld, datatable: list[list[str]]) -> None:
    for row in _table(datatable):
        _register_hook(hook_world, row["name"], {"message": row["message"]})


@when("执行 `init()` 与后续 run 收尾")
def hook_when_init_and_finish(hook_world: HookWorld, docstring: str) -> None:
    hook_world.executor.init()
    hook_world.should_execute = hook_world.executor.should_execute()
    # The run's end asks should_execute(); a disabled executor must also refuse when called directly.
    _execute(hook_world, docstring)


@then("不应加载 stop hooks")
def hook_then_not_loaded(hook_world: HookWorld) -> None:
    assert hook_world.loader_calls == [], (
        "init() of a disabled executor must not load (call the loader of) stop hooks"
    )


@then("最终响应不应追加 hook 内容")
def hook_then_response_untouched(hook_world: HookWorld) -> None:
    assert hook_world.should_execute is False, "shouldExecute() should be False when enabled=false"
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    called = {name: len(calls) for name, calls in hook_world.hook_calls.items() if calls}
    assert not called, f"a disabled executor must not run hooks, ran {called}"
    assert hook_world.response == hook_world.final, (
        f"the final response should be returned unchanged, got {hook_world.response!r}"
    )
    assert STOP_HOOK_MARKER not in (hook_world.response or "")


@given("`stopHookRegistry.executeAll` 返回非空 message 列表")
def hook_given_hooks_with_messages(
    synapse: Implementation, hook_world: HookWorld, datatable: list[list[str]]
) -> None:
    _hook_executor(synapse, hook_world, enabled=True)
    hook_world.executor.init()
    for row in _table(datatable):
        _register_hook(hook_world, row["name"], {"message": row["message"]})
        hook_world.hook_messages.append(row["message"])


@given("`stopHookRegistry.executeAll` 返回以下 message（JSON 字符串，保留首尾空白与换行）")
def hook_given_hooks_with_json_messages(
    synapse: Implementation, hook_world: HookWorld, datatable: list[list[str]]
) -> None:
    _hook_executor(synapse, hook_world, enabled=True)
    hook_world.executor.init()
    for row in _table(datatable):
        # A cell's \n is already a newline (Gherkin unescapes it); strict=False accepts it in the string.
        message = json.loads(row["message"], strict=False)
        _register_hook(hook_world, row["name"], {"message": message})
        hook_world.hook_messages.append(message)


@when("调用 `executeAndAppend(finalResponse, context)`")
def hook_when_execute_and_append(hook_world: HookWorld, docstring: str) -> None:
    _execute(hook_world, docstring)


@when("以空的 finalResponse 调用 `executeAndAppend(finalResponse, context)`")
def hook_when_execute_and_append_empty(hook_world: HookWorld) -> None:
    _execute(hook_world, "")


@when(parsers.re(r'以 finalResponse (?P<text>".*") 调用 `executeAndAppend\(finalResponse, context\)`$'))
def hook_when_execute_and_append_json(hook_world: HookWorld, text: str) -> None:
    _execute(hook_world, json.loads(text))


@then(parsers.re(r'最终文本应恰好为 (?P<text>".*")$'))
def hook_then_exact_json_text(hook_world: HookWorld, text: str) -> None:
    expected = json.loads(text)
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    assert hook_world.response == expected, (
        f"the final text should be exactly\n  {expected!r}\n  got {hook_world.response!r}"
    )


@then("最终文本应恰好为 marker 与后注册先执行的 hook 消息，前面没有空行:")
def hook_then_exact_text_without_lead(hook_world: HookWorld, docstring: str) -> None:
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    assert hook_world.response == docstring, (
        f"after an empty response the text should start with the marker (no blank line before it):\n"
        f"  expected {docstring!r}\n  got      {hook_world.response!r}"
    )


@then("最终文本应包含 `STOP_HOOK_MARKER`")
def hook_then_contains_marker(synapse: Implementation, hook_world: HookWorld) -> None:
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    assert synapse.stop_hook_marker == STOP_HOOK_MARKER, (
        f"STOP_HOOK_MARKER should be {STOP_HOOK_MARKER!r}, got {synapse.stop_hook_marker!r}"
    )
    response = hook_world.response or ""
    assert STOP_HOOK_MARKER in response, f"the response should contain {STOP_HOOK_MARKER!r}: {response!r}"
    assert response.startswith(hook_world.final), f"the original response should come first: {response!r}"


@then("marker 后应包含 hook 消息正文")
def hook_then_messages_after_marker(hook_world: HookWorld) -> None:
    response = hook_world.response or ""
    assert STOP_HOOK_MARKER in response, f"the response should contain {STOP_HOOK_MARKER!r}: {response!r}"
    after = response.split(STOP_HOOK_MARKER, 1)[1]
    assert hook_world.hook_messages
    for body in hook_world.hook_messages:
        assert body in after, f"the hook message {body!r} should follow the marker: {response!r}"


@then("最终文本应为原响应、空行、marker 与后注册先执行的 hook 消息:")
def hook_then_exact_text(hook_world: HookWorld, docstring: str) -> None:
    assert hook_world.response == docstring, (
        f"the response should be the original, a blank line, the marker and the hook messages (last "
        f"registered first):\n  expected {docstring!r}\n  got      {hook_world.response!r}"
    )


@then("每个 hook 都应只被调用一次，并收到 sessionId、cwd、messages 与 finalResponse")
def hook_then_context(hook_world: HookWorld) -> None:
    for name, calls in hook_world.hook_calls.items():
        assert len(calls) == 1, f"hook {name!r} should run once, ran {len(calls)} times"
        context = calls[0]
        assert context.session_id == "session-hook-test", f"{name}: sessionId {context.session_id!r}"
        assert context.cwd == hook_world.cwd, f"{name}: cwd should be {hook_world.cwd!r}, got {context.cwd!r}"
        assert list(context.messages) == hook_world.messages, f"{name}: messages should be the run's history"
        assert context.final_response == hook_world.final, f"{name}: finalResponse {context.final_response!r}"


@given("注册表中依次注册了以下 stop hooks")
def hook_given_registered_behaviours(
    synapse: Implementation, hook_world: HookWorld, datatable: list[list[str]]
) -> None:
    _hook_executor(synapse, hook_world, enabled=True)
    hook_world.executor.init()
    for row in _table(datatable):
        behaviour = row["behaviour"]
        if behaviour.startswith("返回 "):
            _register_hook(hook_world, row["name"], {"message": json.loads(behaviour[len("返回 ") :])})
        elif behaviour.startswith("抛出 RuntimeError("):
            text = json.loads(behaviour[len("抛出 RuntimeError(") : -1])
            _register_hook(hook_world, row["name"], None, error=RuntimeError(text))
        elif registering := re.fullmatch(r'注册返回 (".*") 的 hook `([^`]+)`，再返回 (".*")', behaviour):
            late = {"message": json.loads(registering[1])}
            _register_registering_hook(
                hook_world, row["name"], registering[2], late, {"message": json.loads(registering[3])}
            )
        else:
            raise AssertionError(f"unknown hook behaviour {behaviour!r}")


@then(parsers.parse("应记录一条指出 hook `{name}` 执行失败的日志"))
def hook_then_failure_logged(hook_world: HookWorld, caplog: pytest.LogCaptureFixture, name: str) -> None:
    assert hook_world.error is None, f"a failing hook must not fail the call, got {hook_world.error!r}"
    assert len(hook_world.hook_calls[name]) == 1, f"hook {name!r} should have been run once"
    logged = [
        r.getMessage()
        for r in probes.implementation_records(caplog.records, logging.WARNING, or_above=True)
        if name in probes.logged_text(r)
    ]
    assert logged, f"the failure of hook {name!r} should be logged (WARNING or above, synapse.*) naming it"


BLANK_RESULTS: dict[str, Any] = {
    "空字串": {"message": ""},
    "全空白": {"message": "  \n\t  "},
    "无 message 字段": {"enhanced": ["git-flow"]},
    "无返回值": None,
}


@given("hook 返回空或全空白 message")
def hook_given_blank_hooks(
    synapse: Implementation, hook_world: HookWorld, datatable: list[list[str]]
) -> None:
    _hook_executor(synapse, hook_world, enabled=True)
    hook_world.executor.init()
    for row in _table(datatable):
        assert row["result"] in BLANK_RESULTS, f"unknown blank result {row['result']!r}"
        _register_hook(hook_world, row["name"], BLANK_RESULTS[row["result"]])


@when("调用 `executeAndAppend(...)`")
def hook_when_execute_blank(hook_world: HookWorld, docstring: str) -> None:
    _execute(hook_world, docstring)


@then("应返回原始 `finalResponse` 不变")
def hook_then_unchanged(hook_world: HookWorld) -> None:
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    assert hook_world.response == hook_world.final, (
        f"blank hook messages should leave the response unchanged, got {hook_world.response!r}"
    )


@then("每个 hook 都应只被调用一次")
def hook_then_each_called_once(hook_world: HookWorld) -> None:
    counts = {name: len(calls) for name, calls in hook_world.hook_calls.items()}
    assert counts and all(n == 1 for n in counts.values()), f"every registered hook should run once: {counts}"


@given("onMessagePart 回调抛出异常")
def hook_given_failing_callback(
    synapse: Implementation, hook_world: HookWorld, datatable: list[list[str]]
) -> None:
    how = dict((row[0], row[1]) for row in datatable)["抛出方式"]

    def sync_callback(part: dict[str, Any]) -> None:
        hook_world.part_calls.append(part)
        raise RuntimeError("terminal renderer crashed")

    async def async_callback(part: dict[str, Any]) -> None:
        hook_world.part_calls.append(part)
        raise RuntimeError("terminal renderer crashed")

    callbacks: dict[str, Any] = {"同步抛出": sync_callback, "异步抛出": async_callback}
    assert how in callbacks, f"unknown way to raise {how!r}"
    _hook_executor(synapse, hook_world, enabled=True, on_part=callbacks[how])
    hook_world.executor.init()


@given("onMessagePart 回调第一次抛出异常，之后照常记录收到的消息片段")
def hook_given_callback_failing_once(synapse: Implementation, hook_world: HookWorld) -> None:
    def callback(part: dict[str, Any]) -> None:
        hook_world.part_calls.append(part)
        if len(hook_world.part_calls) == 1:
            raise RuntimeError("terminal renderer crashed once")

    _hook_executor(synapse, hook_world, enabled=True, on_part=callback)
    hook_world.executor.init()


@then(parsers.parse("onMessagePart 应依次收到以下片段，只为第一次的失败记录 {count:d} 条 warning"))
def hook_then_parts_after_failure(
    hook_world: HookWorld, caplog: pytest.LogCaptureFixture, count: int, datatable: list[list[str]]
) -> None:
    assert hook_world.error is None, (
        f"a failing progress callback must not propagate, got {hook_world.error!r}"
    )
    # A cell's \n is already a newline (Gherkin unescapes it); strict=False accepts it inside the string.
    expected = [json.loads(row[0], strict=False) for row in datatable[1:]]
    assert hook_world.part_calls == expected, (
        f"every progress message should be offered to onMessagePart, also after it failed once: expected "
        f"{expected!r}, got {hook_world.part_calls!r}"
    )
    warnings = _synapse_warnings(caplog)
    assert len(warnings) == count, (
        f"the one failure should be logged as {count} warning(s), got {[r.getMessage() for r in warnings]!r}"
    )


@given("注册表中有一个先报告进度再返回消息的 stop hook")
def hook_given_progress_hook(hook_world: HookWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    name = row["name"]
    hook_world.hook_calls[name] = []
    hook_world.progress = row["progress"]
    hook_world.progress_message = row["message"]

    async def hook(context: Any) -> Any:
        hook_world.hook_calls[name].append(context)
        await context.on_progress(row["progress"])
        hook_world.completed.append(name)
        return {"message": row["message"]}

    hook_world.registry.register(name, hook)


@when("hook 执行中调用 `emitProgress`")
def hook_when_progress(hook_world: HookWorld, docstring: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.clear()
    _execute(hook_world, docstring)


@then("异常应被捕获并记录 warning")
def hook_then_caught_and_warned(hook_world: HookWorld, caplog: pytest.LogCaptureFixture) -> None:
    assert hook_world.error is None, (
        f"a failing progress callback must not propagate, got {hook_world.error!r}"
    )
    progress = hook_world.progress
    assert hook_world.part_calls == [{"type": "text", "text": f"\n{progress}\n"}], (
        f"onMessagePart should get the progress text once, as {{'type': 'text', 'text': '\\n<text>\\n'}}; "
        f"got {hook_world.part_calls!r}"
    )
    assert _synapse_warnings(caplog), (
        "the callback failure should be logged as a warning on a synapse.* logger"
    )


@then("主流程继续执行")
def hook_then_flow_continues(hook_world: HookWorld) -> None:
    assert hook_world.completed, "the hook should continue after the failed progress callback"
    expected = f"{hook_world.final}\n\n{STOP_HOOK_MARKER}\n{hook_world.progress_message}"
    assert hook_world.response == expected, (
        f"the run should still end with the hook's message appended:\n  expected {expected!r}\n"
        f"  got      {hook_world.response!r}"
    )


@when("记录 INFO 及以上日志时调用 `executeAndAppend(finalResponse, context)`")
def ses_hook_when_execute_logged(
    hook_world: HookWorld, caplog: pytest.LogCaptureFixture, docstring: str
) -> None:
    caplog.set_level(logging.INFO, logger="synapse")
    caplog.clear()
    _execute(hook_world, docstring)


@then("synapse 日志中应依次出现以下记录")
def ses_hook_then_log_sequence(caplog: pytest.LogCaptureFixture, datatable: list[list[str]]) -> None:
    logged = [
        (r.levelname, r.getMessage())
        for r in probes.implementation_records(caplog.records, logging.INFO, or_above=True)
    ]
    expected = [(row["level"], row["message"]) for row in _table(datatable)]
    remaining = iter(logged)
    missing = [record for record in expected if record not in remaining]
    assert not missing, (
        f"the synapse.* log should hold {expected!r} in this order; missing {missing!r} in {logged!r}"
    )


@given(parsers.parse('启用的 executor 的 loader 注册一个返回 "{message}" 的 hook `{name}`'))
def ses_hook_given_loader(synapse: Implementation, hook_world: HookWorld, message: str, name: str) -> None:
    hook_world.registry = synapse.stop_hook_registry()
    hook_world.hook_calls[name] = []

    async def hook(context: Any) -> Any:
        hook_world.hook_calls[name].append(context)
        return {"message": message}

    def loader(registry: Any) -> None:
        hook_world.loader_calls.append(registry)
        registry.register(name, hook)

    hook_world.executor = synapse.stop_hook_executor(
        enabled=True, registry=hook_world.registry, loader=loader
    )


@given(parsers.parse('启用且没有 loader 的 executor，注册表中直接注册了返回 "{message}" 的 hook `{name}`'))
def ses_hook_given_no_loader(synapse: Implementation, hook_world: HookWorld, message: str, name: str) -> None:
    hook_world.registry = synapse.stop_hook_registry()
    hook_world.executor = synapse.stop_hook_executor(enabled=True, registry=hook_world.registry)
    _register_hook(hook_world, name, {"message": message})


@when(parsers.parse("调用 {times:d} 次 `init()` 后调用 `executeAndAppend(finalResponse, context)`"))
def ses_hook_when_init_then_execute(hook_world: HookWorld, times: int, docstring: str) -> None:
    for _ in range(times):
        hook_world.executor.init()
    _execute(hook_world, docstring)
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"


@then(parsers.parse("loader 应只被调用 {times:d} 次，且收到的是该 executor 的注册表"))
def ses_hook_then_loaded_once(hook_world: HookWorld, times: int) -> None:
    calls = hook_world.loader_calls
    assert len(calls) == times, f"init() should call the loader {times} time(s) in all, called {len(calls)}"
    assert all(registry is hook_world.registry for registry in calls), (
        "the loader should receive the executor's own registry"
    )


@given(parsers.parse("onMessagePart 回调以{how}方式记录收到的消息片段"))
def ses_hook_given_recording_callback(synapse: Implementation, hook_world: HookWorld, how: str) -> None:
    def sync_callback(part: dict[str, Any]) -> None:
        hook_world.part_calls.append(part)

    async def async_callback(part: dict[str, Any]) -> None:
        hook_world.part_calls.append(part)

    callbacks: dict[str, Any] = {"同步": sync_callback, "异步": async_callback}
    assert how in callbacks, f"unknown kind of callback {how!r}"
    _hook_executor(synapse, hook_world, enabled=True, on_part=callbacks[how])
    hook_world.executor.init()


@given("没有 onMessagePart 回调的启用 executor")
def ses_hook_given_no_callback(synapse: Implementation, hook_world: HookWorld) -> None:
    _hook_executor(synapse, hook_world, enabled=True)
    hook_world.executor.init()


@given(parsers.parse('注册表中有一个依次报告以下进度后返回 "{message}" 的 stop hook'))
def ses_hook_given_progress_sequence(hook_world: HookWorld, message: str, datatable: list[list[str]]) -> None:
    # A cell's \n is already a newline (Gherkin unescapes it); strict=False accepts it inside the string.
    progress = [json.loads(row[0], strict=False) for row in datatable[1:]]
    hook_world.hook_calls["progress"] = []
    hook_world.progress_message = message

    async def hook(context: Any) -> Any:
        hook_world.hook_calls["progress"].append(context)
        for text in progress:
            await context.on_progress(text)
        hook_world.completed.append("progress")
        return {"message": message}

    hook_world.registry.register("progress", hook)


@given(
    parsers.parse(
        '注册表中有一个报告进度 "{progress}" 后、返回 "{message}" 之前'
        "记下 onMessagePart 已收到几个片段的 stop hook"
    )
)
def ses_hook_given_progress_then_count(hook_world: HookWorld, progress: str, message: str) -> None:
    hook_world.hook_calls["progress"] = []
    hook_world.progress_message = message

    async def hook(context: Any) -> Any:
        hook_world.hook_calls["progress"].append(context)
        await context.on_progress(progress)
        hook_world.parts_before_return = len(hook_world.part_calls)
        hook_world.completed.append("progress")
        return {"message": message}

    hook_world.registry.register("progress", hook)


@then(parsers.parse("hook 返回之前 onMessagePart 应已收到 {count:d} 个片段"))
def ses_hook_then_parts_before_return(hook_world: HookWorld, count: int) -> None:
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    seen = hook_world.parts_before_return
    assert seen == count, (
        f"progress should reach onMessagePart while the hook still works: {count} part(s) expected by "
        f"the time the hook returned, it had {seen}"
    )


@then(parsers.parse("onMessagePart 应只收到一个片段 {part}"))
def ses_hook_then_one_part(hook_world: HookWorld, part: str) -> None:
    expected = [json.loads(part)]
    assert hook_world.part_calls == expected, (
        f"onMessagePart should receive exactly {expected!r}, got {hook_world.part_calls!r}"
    )


@then("不应记录 warning")
def ses_hook_then_no_warning(hook_world: HookWorld, caplog: pytest.LogCaptureFixture) -> None:
    assert hook_world.error is None, f"executeAndAppend raised {hook_world.error!r}"
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not warnings, f"showing progress should log no warning, got {warnings!r}"


# --------------------------------------------------------------------------------------------------------
# Session id, title, files and index format (beyond seed)
# --------------------------------------------------------------------------------------------------------

SESSION_ID = re.compile(r"^session-([0-9a-z]+)-([0-9a-z]{6})$")
ISO_8601 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
OPUS = "claude-opus-4-20250514"


@given(parsers.parse("实现进程的时区为 `{zone}`（环境变量 TZ），与 UTC 相差 {hours:d} 小时"))
def ses_given_time_zone(
    synapse: Implementation, request: pytest.FixtureRequest, zone: str, hours: int
) -> None:
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.time_zone(zone))
    offset = datetime.now().astimezone().utcoffset()
    assert offset is not None and offset.total_seconds() == hours * 3600, (
        f"TZ={zone} should put local time {hours} hours from UTC, the offset is {offset}"
    )


@when("记下时间后创建一个新会话")
def ses_when_create_timed(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.snapshot["before_ms"] = int(time.time() * 1000)
    ses_world.session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    ses_world.snapshot["after_ms"] = int(time.time() * 1000)


@when(parsers.parse("向会话追加 {count:d} 条消息"))
def ses_when_append_messages(ses_world: SesWorld, count: int) -> None:
    messages = [
        _text_message("user" if i % 2 == 0 else "assistant", f"消息 {i}：héllo") for i in range(count)
    ]
    ses_world.snapshot["messages"] = messages
    ses_world.session.append_message(messages)


@then("会话 id 应形如 `session-<创建时刻毫秒的 base36>-<6 位 [a-z0-9]>`，时间部分落在创建前后")
def ses_then_id_format(ses_world: SesWorld) -> None:
    session_id = ses_world.session.id
    match = SESSION_ID.match(session_id)
    assert match, f"the session id should be session-<base36 ms>-<6 chars [a-z0-9]>, got {session_id!r}"
    millis = int(match.group(1), 36)
    before, after = ses_world.snapshot["before_ms"], ses_world.snapshot["after_ms"]
    assert before <= millis <= after, (
        f"the id's time part should be the creation time in ms (between {before} and {after}), got {millis}"
    )


@then("历史文件与 `sessions.json` 都应可由写入者读写，不可执行，也不比 umask 允许的更开放")
def ses_then_file_modes(synapse: Implementation, ses_world: SesWorld) -> None:
    allowed = 0o666 & ~probes.implementation_umask(synapse)
    paths = (Path(ses_world.session.history_path), ses_world.sessions_dir / "sessions.json")
    modes = {path.name: os.stat(path).st_mode & 0o7777 for path in paths}
    for name, mode in modes.items():
        assert mode & 0o600 == 0o600 and not mode & ~allowed, (
            f"{name} should be created as 0666 less the umask ({allowed:#o}): readable and writable by its "
            f"owner, executable by no one; its mode is {mode:#o}"
        )


@then("历史文件应为 `<sessions_dir>/<id>.jsonl`，每行一个 JSON 对象，非 ASCII 文本原样写入")
def ses_then_history_file(ses_world: SesWorld) -> None:
    session = ses_world.session
    expected = ses_world.sessions_dir / f"{session.id}.jsonl"
    assert Path(session.history_path) == expected, (
        f"the history file should be <sessions_dir>/<id>.jsonl = {expected}, got {session.history_path}"
    )
    assert expected.is_file(), f"the history file {expected} should exist after appending"
    text = expected.read_text(encoding="utf-8")
    lines = text.splitlines()
    messages = ses_world.snapshot["messages"]
    assert [json.loads(line) for line in lines] == messages, (
        f"the history file should hold one JSON message per line, in order, got {text!r}"
    )
    assert "消息" in text and "héllo" in text and "\\u" not in text, (
        f"non-ASCII text should be written raw in the JSONL, not as \\u escapes, got {text!r}"
    )


@then('`sessions.json` 应为 `{"version": "1.0.0", "sessions": [...], "updatedAt": ISO-8601}`')
def ses_then_index_shape(ses_world: SesWorld) -> None:
    data = _read_index(ses_world.sessions_dir)
    assert set(data) == {"version", "sessions", "updatedAt"}, (
        f"sessions.json should have exactly the keys version, sessions, updatedAt, got {sorted(data)!r}"
    )
    assert data["version"] == "1.0.0", f"sessions.json version should be '1.0.0', got {data['version']!r}"
    assert isinstance(data["updatedAt"], str) and ISO_8601.match(data["updatedAt"]), (
        f"sessions.json updatedAt should be an ISO-8601 timestamp, got {data['updatedAt']!r}"
    )


@then("索引中该会话的条目应含 id、createdAt、updatedAt，messageCount 为 2")
def ses_then_entry_shape(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    for key in ("createdAt", "updatedAt"):
        assert isinstance(entry.get(key), str) and ISO_8601.match(entry[key]), (
            f"the index entry's {key} should be an ISO-8601 timestamp, got {entry.get(key)!r}"
        )
    assert entry.get("messageCount") == 2, (
        f"the index entry's messageCount should be 2 after appending 2 messages, "
        f"got {entry.get('messageCount')!r}"
    )


@when(parsers.parse("用 {count:d} 条消息重写会话历史"))
def ses_when_rewrite_with(ses_world: SesWorld, count: int) -> None:
    ses_world.session.rewrite_history([_text_message("user", f"重写 {i}") for i in range(count)])


@when(parsers.parse("过几毫秒后记下时间，再用 {count:d} 条消息重写会话历史"))
def ses_when_rewrite_later(ses_world: SesWorld, count: int) -> None:
    time.sleep(0.005)  # the entry's timestamps have milliseconds: the rewrite is then visibly later
    ses_world.snapshot["rewrite_ms"] = int(time.time() * 1000)
    ses_world.session.rewrite_history([_text_message("user", f"重写 {i}") for i in range(count)])


@then("索引中该会话条目的 updatedAt 应不早于重写前记下的时间")
def ses_then_entry_updated(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    stamp = entry.get("updatedAt")
    assert isinstance(stamp, str) and TO_ISO_STRING.match(stamp), (
        f"updatedAt should be a timestamp: {stamp!r}"
    )
    moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    written = ses_world.snapshot["rewrite_ms"]
    assert round(moment.timestamp() * 1000) >= written, (
        f"the entry's updatedAt should say when it was last written (at {written} ms or later), got {stamp!r}"
    )


@then(parsers.parse("索引中该会话的 messageCount 应为 {count:d}"))
def ses_then_entry_count(ses_world: SesWorld, count: int) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert entry.get("messageCount") == count, (
        f"the index entry's messageCount should follow the history ({count}), "
        f"got {entry.get('messageCount')!r}"
    )
    assert ses_world.session.message_count == count, (
        f"the session's message_count should be {count}, got {ses_world.session.message_count!r}"
    )


@then("历史文件应仍在，但不含任何消息行")
def ses_then_history_kept_without_messages(ses_world: SesWorld) -> None:
    path = Path(ses_world.session.history_path)
    assert path.is_file(), f"a history rewritten with no messages should still be a file, {path} is gone"
    data = path.read_bytes()
    assert not [line for line in data.split(b"\n") if line.strip()], (
        f"a history rewritten with no messages should hold none (0 bytes or blank lines only), "
        f"got {data[:300]!r}"
    )


@when(parsers.parse('追加第一条用户消息，文本部分为 "{parts}"（以 ` + ` 分隔）'))
def ses_when_append_first_user(ses_world: SesWorld, parts: str) -> None:
    content = [{"type": "text", "text": cells.expand(part)} for part in parts.split(" + ")]
    ses_world.session.append_message({"role": "user", "content": content})


@then(parsers.parse('标题应为 "{title}"，索引中亦然'))
def ses_then_title(ses_world: SesWorld, title: str) -> None:
    title = cells.expand(title)  # {U+0301} for a combining accent, {x * 45} for a repeated letter
    assert ses_world.session.title == title, (
        f"the title should be the first user message's text parts joined by a space, at most 50 chars "
        f"(47 + '...'): expected {title!r}, got {ses_world.session.title!r}"
    )
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert entry.get("title") == title, (
        f"the index entry's title should be {title!r}, got {entry.get('title')!r}"
    )


@when("会话以模型 `claude-opus-4-20250514` 记录一轮 usage")
def ses_when_usage_with_model(ses_world: SesWorld) -> None:
    ses_world.session.update_usage(dict.fromkeys(ROUND_KEYS, 10), OPUS)


@then("`getUsage()` 与索引中的 usage.model 都应为 `claude-opus-4-20250514`")
def ses_then_usage_model(ses_world: SesWorld) -> None:
    model = ses_world.session.get_usage().get("model")
    assert model == OPUS, f"update_usage(u, model) should switch usage.model to {OPUS!r}, got {model!r}"
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    stored = (entry.get("usage") or {}).get("model")
    assert stored == OPUS, (
        f"the index entry's usage.model should be {OPUS!r} after the switch, got {stored!r}"
    )


@when("会话以空的模型名记录一轮 usage")
def ses_when_usage_with_empty_model(ses_world: SesWorld) -> None:
    ses_world.session.update_usage(dict.fromkeys(ROUND_KEYS, 10), "")


@then(parsers.parse("`getUsage()` 与索引中的 usage.model 都应仍为 `{model}`"))
def ses_then_usage_model_kept(ses_world: SesWorld, model: str) -> None:
    got = ses_world.session.get_usage().get("model")
    assert got == model, f"update_usage(u, model='') should keep usage.model {model!r}, got {got!r}"
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    stored = (entry.get("usage") or {}).get("model")
    assert stored == model, f"the index entry's usage.model should stay {model!r}, got {stored!r}"


@given(parsers.parse("`SYNAPSE_MAX_SESSIONS` 为 {setting}，即最多保留 {limit:d} 个会话"))
def ses_given_max_sessions(
    ses_world: SesWorld, monkeypatch: pytest.MonkeyPatch, setting: str, limit: int
) -> None:
    # ses_world first: its fixture clears SYNAPSE_MAX_SESSIONS.
    if setting == "(未设置)":
        monkeypatch.delenv("SYNAPSE_MAX_SESSIONS", raising=False)
    else:
        monkeypatch.setenv("SYNAPSE_MAX_SESSIONS", cells.expand(setting))  # {U+FEFF}


@given(parsers.parse("已依次创建 {count:d} 个会话，每个都有历史文件和会话目录"))
def ses_given_sessions_with_files(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    ids: list[str] = []
    for i in range(count):
        session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
        session.append_message(_text_message("user", f"会话 {i}"))
        offload = Path(session.offload_dir)
        offload.mkdir(parents=True, exist_ok=True)
        (offload / "kept.txt").write_text("offloaded", encoding="utf-8")
        ids.append(session.id)
        time.sleep(0.002)  # distinct creation times
    ses_world.snapshot["older_ids"] = ids


@then(parsers.parse("`sessions.json` 应按从新到旧只列出最近的 {limit:d} 个会话"))
def ses_then_newest_kept(ses_world: SesWorld, limit: int) -> None:
    listed = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    expected = [ses_world.session.id, *reversed(ses_world.snapshot["older_ids"])][:limit]
    assert listed == expected, (
        f"with SYNAPSE_MAX_SESSIONS={limit} sessions.json should list the newest {limit} sessions, "
        f"newest first: expected {expected!r}, got {listed!r}"
    )


@then("最早的会话的历史文件和会话目录应被删除，其余会话的文件保留")
def ses_then_oldest_files_deleted(ses_world: SesWorld) -> None:
    oldest, *kept = ses_world.snapshot["older_ids"]
    directory = ses_world.sessions_dir
    assert not (directory / f"{oldest}.jsonl").exists(), (
        f"the evicted session's history {oldest}.jsonl should be deleted"
    )
    assert not (directory / oldest).exists(), f"the evicted session's directory {oldest}/ should be deleted"
    for session_id in kept:
        assert (directory / f"{session_id}.jsonl").is_file(), (
            f"the kept session's history {session_id}.jsonl should stay"
        )
        assert (directory / session_id).is_dir(), f"the kept session's directory {session_id}/ should stay"


@then("所有较早会话的历史文件和会话目录都应被删除")
def ses_then_all_older_files_deleted(ses_world: SesWorld) -> None:
    directory = ses_world.sessions_dir
    for session_id in ses_world.snapshot["older_ids"]:
        assert not (directory / f"{session_id}.jsonl").exists(), (
            f"the evicted session's history {session_id}.jsonl should be deleted"
        )
        assert not (directory / session_id).exists(), (
            f"the evicted session's directory {session_id}/ should be deleted"
        )


@given("一份 usage 记录")
def ses_given_usage_record(ses_world: SesWorld, datatable: list[list[str]]) -> None:
    (row,) = _table(datatable)
    ses_world.usage = {
        "model": SONNET,
        **{key: int(row[key]) for key in TOTAL_KEYS},
        "rounds": [],
        "totalCost": float(row["totalCost"]),
    }


@given('一份只有 model 的 usage 记录 `{"model": "unknown-model"}`')
def ses_given_sparse_usage(ses_world: SesWorld) -> None:
    ses_world.usage = {"model": "unknown-model"}


@when("无定价表时向这份记录累积一轮 usage")
def ses_when_accumulate_sparse(
    synapse: Implementation, ses_world: SesWorld, datatable: list[list[str]]
) -> None:
    (row,) = _table(datatable)
    ses_world.round_template = _round(row)
    assert ses_world.usage is not None
    ses_world.usage = synapse.accumulate_usage(ses_world.usage, dict(ses_world.round_template), None)


@then("累积结果的 totals 应等于这一轮，`totalCost` 键存在且为 null")
def ses_then_sparse_totals(ses_world: SesWorld) -> None:
    usage = ses_world.usage
    assert usage is not None
    totals = {total: usage.get(total) for total in TOTAL_KEYS}
    expected = {
        total: ses_world.round_template[key] for total, key in zip(TOTAL_KEYS, ROUND_KEYS, strict=True)
    }
    assert totals == expected, f"missing totals should count from 0: expected {expected!r}, got {totals!r}"
    assert "totalCost" in usage and usage["totalCost"] is None, (
        f"without a price the accumulated record should carry totalCost: null, got {usage!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: the index schema and timestamp format
# --------------------------------------------------------------------------------------------------------

TO_ISO_STRING = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
INDEX_PATH_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _write_index(world: SesWorld, data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    (world.sessions_dir / "sessions.json").write_text(text, encoding="utf-8")
    world.snapshot["index_bytes"] = text.encode("utf-8")


def _index_path(path: str) -> list[str | int]:
    """``sessions[0].usage.rounds[0]`` -> ``["sessions", 0, "usage", "rounds", 0]``."""
    steps: list[str | int] = [
        int(index) if index else key for key, index in INDEX_PATH_STEP.findall(path.strip())
    ]
    assert steps, f"setting up: {path!r} is not a path into the index"
    return steps


@given("`sessions.json` 以如下合法索引为基础")
def ses_given_base_index(ses_world: SesWorld, docstring: str) -> None:
    ses_world.snapshot["index_data"] = json.loads(docstring)
    _write_index(ses_world, ses_world.snapshot["index_data"])


@given(parsers.parse("把其中 {fields} 改为 {value}"))
def ses_given_index_changed(ses_world: SesWorld, fields: str, value: str) -> None:
    data = ses_world.snapshot["index_data"]
    if fields == "(整个索引)":
        data = json.loads(value)
    elif fields != "(无)":
        for path in fields.split(","):
            *parents, last = _index_path(path)
            target = data
            for step in parents:
                target = target[step]
            if value == "(删除)":
                del target[last]
            else:
                target[last] = json.loads(value)
    ses_world.snapshot["index_data"] = data
    _write_index(ses_world, data)


@then(parsers.parse("`Session.list()` 应列出 {count:d} 个会话，且列出的条目与索引文件中的一致"))
def ses_then_listed_as_in_file(ses_world: SesWorld, count: int) -> None:
    assert ses_world.error is None, f"Session.list() must not raise, it raised {ses_world.error!r}"
    listed = list(ses_world.result)
    assert len(listed) == count, f"Session.list() should list {count} session(s), got {listed!r}"
    if count:
        expected = ses_world.snapshot["index_data"]["sessions"]
        assert listed == expected, (
            f"the listed entries should be those of sessions.json:\n  {expected!r}\n  got {listed!r}"
        )


@then(parsers.parse('是否记录了以 "{prefix}" 开头的 warning: {answer}'))
def ses_then_prefixed_warning(caplog: pytest.LogCaptureFixture, prefix: str, answer: str) -> None:
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    matching = [w for w in warnings if w.startswith(prefix)]
    if answer == "是":
        assert matching, f"a warning starting with {prefix!r} should be logged, got {warnings!r}"
    else:
        assert not warnings, f"reading a valid index should log no warning, got {warnings!r}"


ENTRY_FIELDS = ("id", "createdAt", "updatedAt", "messageCount", "title", "cwd", "usage")
USAGE_FIELDS = (*TOTAL_KEYS, "model", "rounds", "totalCost")


def _schema_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """The fields of an index entry that the original's schema names (others may be dropped or kept)."""
    named = {key: entry[key] for key in ENTRY_FIELDS if key in entry}
    if isinstance(named.get("usage"), dict):
        named["usage"] = {key: named["usage"][key] for key in USAGE_FIELDS if key in named["usage"]}
    return named


@then(parsers.parse("`Session.list()` 应列出 {count:d} 个会话，schema 所列的字段都与索引文件中的一致"))
def ses_then_listed_schema_fields(ses_world: SesWorld, count: int) -> None:
    assert ses_world.error is None, f"Session.list() must not raise, it raised {ses_world.error!r}"
    listed = [_schema_fields(entry) for entry in ses_world.result]
    expected = [_schema_fields(entry) for entry in ses_world.snapshot["index_data"]["sessions"]]
    assert len(listed) == count, f"Session.list() should list {count} session(s), got {listed!r}"
    assert listed == expected, (
        f"the listed entries should be those of sessions.json:\n  {expected!r}\n  got {listed!r}"
    )


@then(parsers.parse("`Session.list()` 应从新到旧列出新会话与 `{old_id}`"))
def ses_then_list_new_and_old(synapse: Implementation, ses_world: SesWorld, old_id: str) -> None:
    listed = [e.get("id") for e in synapse.list_sessions(ses_world.sessions_dir)]
    assert listed == [ses_world.session.id, old_id], (
        f"Session.list() should list the new session, then {old_id!r}, got {listed!r}"
    )


@then(parsers.parse("索引应从新到旧列出新会话与 `{old_id}`，旧条目原样保留"))
def ses_then_new_and_old_listed(ses_world: SesWorld, old_id: str) -> None:
    sessions = _read_index(ses_world.sessions_dir)["sessions"]
    ids = [entry.get("id") for entry in sessions]
    assert ids == [ses_world.session.id, old_id], (
        f"sessions.json should list the new and the old session, got {ids!r}"
    )
    (old,) = ses_world.snapshot["index_data"]["sessions"]
    assert sessions[1] == old, f"the old entry should be kept as it was:\n  {old!r}\n  got {sessions[1]!r}"


@then("不应有备份文件")
def ses_then_no_backup(ses_world: SesWorld) -> None:
    backups = sorted(p.name for p in ses_world.sessions_dir.iterdir() if ".corrupt" in p.name)
    assert not backups, f"a valid index must not be set aside, found {backups!r}"


@then(
    "索引的 updatedAt 与该会话条目的 createdAt、updatedAt 都应形如 `2026-01-02T03:04:05.678Z`，且落在创建前后"
)
def ses_then_iso_timestamps(ses_world: SesWorld) -> None:
    data = _read_index(ses_world.sessions_dir)
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    stamps = {"index updatedAt": data.get("updatedAt")}
    stamps |= {f"entry {key}": entry.get(key) for key in ("createdAt", "updatedAt")}
    # Milliseconds truncate, so the window is widened by one millisecond on each side.
    before, after = ses_world.snapshot["before_ms"] - 1, ses_world.snapshot["after_ms"] + 1
    for name, stamp in stamps.items():
        assert isinstance(stamp, str) and TO_ISO_STRING.match(stamp), (
            f"{name} should be UTC with milliseconds and a Z like 2026-01-02T03:04:05.678Z, got {stamp!r}"
        )
        moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        millis = round(moment.timestamp() * 1000)
        assert before <= millis <= after, (
            f"{name} {stamp!r} should lie between the times before and after creating the session"
        )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: where the files are
# --------------------------------------------------------------------------------------------------------


@given("会话目录及其上级目录都还不存在")
def ses_given_missing_sessions_dir(ses_world: SesWorld) -> None:
    ses_world.sessions_dir = ses_world.root / "fresh-home" / ".synapse" / "sessions"
    assert not ses_world.sessions_dir.parent.exists(), "setting up: the parent should not exist yet"


@then("会话目录应已建出，其中的 `sessions.json` 只列出该会话")
def ses_then_sessions_dir_created(ses_world: SesWorld) -> None:
    assert ses_world.sessions_dir.is_dir(), f"creating a session should create {ses_world.sessions_dir}"
    ids = [entry.get("id") for entry in _read_index(ses_world.sessions_dir)["sessions"]]
    assert ids == [ses_world.session.id], f"sessions.json should list only the new session, got {ids!r}"


@then("会话报告的 `sessionsDir` 是该目录，历史文件为其中的 `<id>.jsonl`，会话目录为其中的 `<id>/`")
def ses_then_session_paths(ses_world: SesWorld) -> None:
    session, root = ses_world.session, ses_world.sessions_dir
    found = (Path(session.sessions_dir), Path(session.history_path), Path(session.offload_dir))
    expected = (root, root / f"{session.id}.jsonl", root / session.id)
    assert found == expected, f"(sessionsDir, historyPath, offloadDir) should be {expected}, got {found}"


@given(
    parsers.parse("`SYNAPSE_HOME` {setting}，`HOME` 指向场景目录，其中 `.synapse/pricing.json` 为 {pricing}")
)
def ses_given_home_pricing(
    ses_world: SesWorld, monkeypatch: pytest.MonkeyPatch, setting: str, pricing: str
) -> None:
    settings = {"未设置": None, "为空字符串": ""}
    assert setting in settings, f"unknown SYNAPSE_HOME setting {setting!r}"
    value = settings[setting]
    if value is None:
        monkeypatch.delenv("SYNAPSE_HOME")
    else:
        monkeypatch.setenv("SYNAPSE_HOME", value)
    home = ses_world.root / "user-home"
    (home / ".synapse").mkdir(parents=True)
    shutil.copyfile(PRICING_FIXTURES / pricing, home / ".synapse" / "pricing.json")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: damaged history lines
# --------------------------------------------------------------------------------------------------------


@then(parsers.parse('只有以下行各记录一条以 "{prefix}" 开头、含行号与历史文件路径的 warning'))
def ses_then_line_warnings(
    ses_world: SesWorld, caplog: pytest.LogCaptureFixture, prefix: str, datatable: list[list[str]]
) -> None:
    lines = [int(row["line"]) for row in _table(datatable)]
    path = str(ses_world.session.history_path)
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    assert len(warnings) == len(lines), (
        f"one warning per corrupt line ({lines}) and none for blank lines, got {warnings!r}"
    )
    for line, message in zip(lines, warnings, strict=True):
        numbers = re.findall(r"\d+", message[len(prefix) :].replace(path, ""))
        assert message.startswith(prefix) and path in message and str(line) in numbers[:1], (
            f"the warning should start with {prefix!r}, then name line {line} and the history file "
            f"{path}: {message!r}"
        )


@given("history 文件第 2 行的文本中含有非法 UTF-8 字节 0xFF")
def ses_given_invalid_utf8_history(synapse: Implementation, ses_world: SesWorld) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    first = json.dumps(_text_message("user", "第一条"), ensure_ascii=False).encode("utf-8")
    second = json.dumps(_text_message("assistant", "坏字节@之后"), ensure_ascii=False).encode("utf-8")
    session.history_path.write_bytes(first + b"\n" + second.replace(b"@", b"\xff") + b"\n")
    ses_world.session = session


def _assert_indented_by_two(text: str) -> None:
    lines = text.splitlines()
    assert len(lines) > 1 and lines[0] == "{", f"sessions.json should be pretty-printed, got {text!r}"
    depth = 0
    for line in lines:
        stripped = line.lstrip(" ")
        if stripped[:1] in "]}":
            depth -= 1
        assert len(line) - len(stripped) == 2 * depth, (
            f"sessions.json should be indented by 2 spaces per level; line {line!r} in:\n{text}"
        )
        if stripped.rstrip(",")[-1:] in "[{":
            depth += 1


@then("`sessions.json` 应以 2 个空格逐层缩进，标题中的非 ASCII 字符原样写入")
def ses_then_index_pretty(ses_world: SesWorld) -> None:
    text = (ses_world.sessions_dir / "sessions.json").read_text(encoding="utf-8")
    _assert_indented_by_two(text)
    title = ses_world.session.title
    assert title and not title.isascii() and json.dumps(title, ensure_ascii=False) in text, (
        f"the title {title!r} should be written to sessions.json as is, not \\u-escaped: {text!r}"
    )


@given(parsers.parse("`SYNAPSE_HOME` 下的 `pricing.json` 内容为 {content}"))
def ses_given_pricing_content(ses_world: SesWorld, content: str) -> None:
    home = Path(os.environ["SYNAPSE_HOME"])
    assert home.is_relative_to(ses_world.root), "SYNAPSE_HOME must point into the scenario's directory"
    # A cell's \xNN is the byte NN, which need not be UTF-8.
    data = re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]), content.encode("utf-8"))
    (home / "pricing.json").write_bytes(data)


@when(parsers.parse("以模型 {model} 恢复会话 `{session_id}`"))
def ses_when_find_with_model(
    synapse: Implementation, ses_world: SesWorld, model: str, session_id: str
) -> None:
    chosen = None if model == "(不指定)" else model.strip("`")
    ses_world.session = synapse.find_session(session_id, ses_world.sessions_dir, model=chosen)
    assert ses_world.session is not None, f"Session.find({session_id!r}) should find the indexed session"


@then(parsers.parse('恢复的会话的标题应为 "{title}"，消息数为 {count:d}'))
def ses_then_found_title_count(ses_world: SesWorld, title: str, count: int) -> None:
    session = ses_world.session
    assert (session.title, session.message_count) == (title, count), (
        f"the title and message count should come from the index ({title!r}, {count}), "
        f"got ({session.title!r}, {session.message_count})"
    )


@then(parsers.parse("恢复的会话的 usage 应为模型 `{model}` 的空 usage"))
def ses_then_found_empty_usage(ses_world: SesWorld, model: str) -> None:
    usage = ses_world.session.get_usage()
    assert usage == _empty_usage(model), f"the usage should be {_empty_usage(model)!r}, got {usage!r}"


@when(parsers.parse("一次追加以下消息 {messages}"))
def ses_when_append_json(ses_world: SesWorld, messages: str) -> None:
    ses_world.snapshot["batch"] = json.loads(messages)
    ses_world.session.append_message(json.loads(messages))


@when(parsers.parse("用以下消息重写会话历史 {messages}"))
def ses_when_rewrite_json(ses_world: SesWorld, messages: str) -> None:
    ses_world.session.rewrite_history(json.loads(messages))


@then(parsers.parse("会话标题应为 {title}，索引中亦然"))
def ses_then_title_json(ses_world: SesWorld, title: str) -> None:
    expected = json.loads(title)
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert (ses_world.session.title, entry.get("title")) == (expected, expected), (
        f"the title should be {expected!r} in the session and in sessions.json, got "
        f"{ses_world.session.title!r} and {entry.get('title')!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: registering and evicting sessions
# --------------------------------------------------------------------------------------------------------


@when("以最早那个会话的 id 再创建一个会话")
def ses_when_create_with_existing_id(synapse: Implementation, ses_world: SesWorld) -> None:
    oldest = ses_world.snapshot["older_ids"][0]
    ses_world.session = synapse.create_session(
        ses_world.sessions_dir, session_id=oldest, model=SONNET, pricing=SONNET_PRICING
    )


@then("`sessions.json` 应恰好有 2 个条目，该 id 只出现一次且排在最前")
def ses_then_id_replaced(ses_world: SesWorld) -> None:
    ids = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    older = ses_world.snapshot["older_ids"]
    assert ids == [older[0], older[1]], f"the re-created id should replace its entry at the top, got {ids!r}"


@then("该条目应是新会话的：messageCount 为 0，cwd 为当前工作目录")
def ses_then_entry_is_new(ses_world: SesWorld) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    assert (entry.get("messageCount"), entry.get("cwd")) == (0, os.getcwd()), (
        f"the entry should be the new session's (messageCount 0, cwd {os.getcwd()!r}), got {entry!r}"
    )


def _rewrite_index(world: SesWorld, change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    path = world.sessions_dir / "sessions.json"
    index = _read_index(world.sessions_dir)
    index["sessions"] = change(index["sessions"])
    path.write_text(json.dumps(index, ensure_ascii=False, indent=2), encoding="utf-8")


@given(parsers.parse('最早那个会话在索引中的 cwd 被改为 "{cwd}"'))
def ses_given_oldest_cwd(ses_world: SesWorld, cwd: str) -> None:
    oldest = ses_world.snapshot["older_ids"][0]
    _rewrite_index(
        ses_world, lambda entries: [{**e, "cwd": cwd} if e.get("id") == oldest else e for e in entries]
    )


@given("用 `Session.find` 恢复最早那个会话")
def ses_given_find_oldest(synapse: Implementation, ses_world: SesWorld) -> None:
    oldest = ses_world.snapshot["older_ids"][0]
    ses_world.session = synapse.find_session(oldest, ses_world.sessions_dir, pricing=SONNET_PRICING)
    assert ses_world.session is not None, f"Session.find({oldest!r}) should find the session"


@given("该会话的条目被手工从 `sessions.json` 中删除")
def ses_given_entry_removed(ses_world: SesWorld) -> None:
    session_id = ses_world.session.id
    _rewrite_index(ses_world, lambda entries: [e for e in entries if e.get("id") != session_id])


@given(parsers.parse("恢复的会话已记录一轮 inputOther 为 {inputs:d}、output 为 {outputs:d} 的 usage"))
def ses_given_resumed_round(ses_world: SesWorld, inputs: int, outputs: int) -> None:
    ses_world.session.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": inputs, "output": outputs})


@when("恢复的会话追加 1 条助手消息")
def ses_when_resumed_appends(ses_world: SesWorld) -> None:
    ses_world.session.append_message(_text_message("assistant", "好的"))


@then("`sessions.json` 应恰好有 2 个条目，恢复的会话排在最前")
def ses_then_resumed_first(ses_world: SesWorld) -> None:
    ids = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    older = ses_world.snapshot["older_ids"]
    assert ids == [older[0], older[1]], f"the session should be registered again at the top, got {ids!r}"


@then(parsers.parse('该条目的 cwd 应为 "{cwd}"，标题为 "{title}"，messageCount 为 {count:d}'))
def ses_then_reregistered_entry(ses_world: SesWorld, cwd: str, title: str, count: int) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.session.id)
    found = (entry.get("cwd"), entry.get("title"), entry.get("messageCount"))
    assert found == (cwd, title, count), (
        f"the entry should carry the session's cwd, title and count {(cwd, title, count)!r}, got {entry!r}"
    )


@then(
    parsers.parse(
        "该条目的 usage 应仍含那一轮："
        "totalInputOther 为 {inputs:d}，totalOutput 为 {outputs:d}，rounds 只有这一轮"
    )
)
def ses_then_reregistered_usage(ses_world: SesWorld, inputs: int, outputs: int) -> None:
    usage = _index_entry(ses_world.sessions_dir, ses_world.session.id).get("usage") or {}
    found = (usage.get("totalInputOther"), usage.get("totalOutput"), usage.get("rounds"))
    expected = (inputs, outputs, [{**dict.fromkeys(ROUND_KEYS, 0), "inputOther": inputs, "output": outputs}])
    assert found == expected, (
        f"the entry should carry the usage the session recorded (totals, rounds) {expected!r}, got {usage!r}"
    )


@given(parsers.re(r"^`SYNAPSE_MAX_SESSIONS` 为 (?P<setting>-?\d+)$"))
def ses_given_max_sessions_value(ses_world: SesWorld, monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.setenv("SYNAPSE_MAX_SESSIONS", setting)


@then("`sessions.json` 应从新到旧列出全部 4 个会话，它们的文件都还在")
def ses_then_nothing_evicted(ses_world: SesWorld) -> None:
    ids = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    older = ses_world.snapshot["older_ids"]
    expected = [ses_world.session.id, *reversed(older)]
    assert ids == expected, f"no session should be evicted: expected {expected!r}, got {ids!r}"
    for session_id in older:
        assert (ses_world.sessions_dir / f"{session_id}.jsonl").is_file(), f"{session_id}.jsonl was deleted"
        assert (ses_world.sessions_dir / session_id / "kept.txt").is_file(), f"{session_id}/ was deleted"


@given("会话目录旁有目录 `victim` 与文件 `victim.jsonl`，会话目录中有文件 `keep.txt`")
def ses_given_victims(ses_world: SesWorld) -> None:
    (ses_world.root / "victim").mkdir()
    (ses_world.root / "victim" / "data.txt").write_text("outside", encoding="utf-8")
    (ses_world.root / "victim.jsonl").write_text("{}\n", encoding="utf-8")
    (ses_world.sessions_dir / "keep.txt").write_text("inside", encoding="utf-8")


@given(parsers.parse("`sessions.json` 只有一个 id 为 {session_id} 的条目"))
def ses_given_single_entry(ses_world: SesWorld, session_id: str) -> None:
    stamp = "2026-01-02T03:04:05.678Z"
    entry = {"id": json.loads(session_id), "createdAt": stamp, "updatedAt": stamp, "messageCount": 0}
    _write_index(ses_world, {"version": "1.0.0", "sessions": [entry], "updatedAt": stamp})


@given(
    parsers.parse(
        "`sessions.json` 只有一个 id 为 {session_id} 的条目，"
        "messageCount、historySize 与 historyInode 都为 0，会话目录旁的 `{name}` 有 {count:d} 条消息"
    )
)
def ses_given_outside_entry(ses_world: SesWorld, session_id: str, name: str, count: int) -> None:
    stamp = "2026-01-02T03:04:05.678Z"
    entry = {
        "id": json.loads(session_id),
        "createdAt": stamp,
        "updatedAt": stamp,
        "messageCount": 0,
        "historySize": 0,
        "historyInode": 0,
    }
    _write_index(ses_world, {"version": "1.0.0", "sessions": [entry], "updatedAt": stamp})
    lines = [json.dumps(_numbered("user", n), ensure_ascii=False) + "\n" for n in range(1, count + 1)]
    (ses_world.root / name).write_text("".join(lines), encoding="utf-8")
    assert (ses_world.sessions_dir / f"{entry['id']}.jsonl").resolve() == (ses_world.root / name).resolve()
    ses_world.snapshot["outside_id"] = entry["id"]


@then("`Session.list()` 中该条目的 messageCount 应为 0，与索引中的一致")
def ses_then_outside_not_counted(synapse: Implementation, ses_world: SesWorld) -> None:
    listed = [
        e
        for e in synapse.list_sessions(ses_world.sessions_dir)
        if e.get("id") == ses_world.snapshot["outside_id"]
    ]
    counts = [e.get("messageCount") for e in listed]
    assert counts == [0], (
        f"an id that is no plain file name names no history in the sessions directory: its count is the "
        f"index's 0, and the file it would name outside must not be read; got {counts}"
    )


@then("目录 `victim`、文件 `victim.jsonl` 与会话目录中的 `keep.txt` 都应还在")
def ses_then_victims_kept(ses_world: SesWorld) -> None:
    for path in (
        ses_world.root / "victim" / "data.txt",
        ses_world.root / "victim.jsonl",
        ses_world.sessions_dir / "keep.txt",
    ):
        assert path.is_file(), f"evicting a hand-edited entry must not delete {path}"


@given("一份空的 usage 记录，模型 `claude-sonnet-4-20250514` 按每百万 token 3 / 15 / 0.3 / 3.75 美元计价")
def ses_given_empty_priced_usage(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.usage = synapse.create_empty_usage(SONNET)
    ses_world.pricing = SONNET_PRICING


@when(parsers.parse("累积一轮只含 {partial} 的 usage"))
def ses_when_accumulate_partial(synapse: Implementation, ses_world: SesWorld, partial: str) -> None:
    assert ses_world.usage is not None
    ses_world.usage = synapse.accumulate_usage(ses_world.usage, json.loads(partial), ses_world.pricing)


@then("累积结果应为")
def ses_then_usage_is(ses_world: SesWorld, docstring: str) -> None:
    expected = json.loads(docstring)
    usage = dict(ses_world.usage or {})
    assert usage.get("totalCost") == pytest.approx(expected.pop("totalCost")), f"totalCost: {usage!r}"
    usage.pop("totalCost", None)
    assert usage == expected, f"the accumulated usage should be {expected!r}, got {usage!r}"


@then("应恢复刚创建的那个会话：没有标题，消息数为 0")
def ses_then_continued_empty_newest(ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"Session.continue() raised {ses_world.error!r}"
    session, newest = ses_world.result, ses_world.session.id
    assert session is not None and session.id == newest, (
        f"Session.continue() should resume the newest created session {newest}, even without messages, "
        f"got {getattr(session, 'id', session)!r}"
    )
    assert (session.title, session.message_count) == (None, 0), (
        f"the resumed session has no messages yet: expected no title and 0 messages, "
        f"got {session.title!r} and {session.message_count!r}"
    )


@when("对该会话的 usage 调用 `formatCostOutput(usage)`")
def ses_when_format_session_cost(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.usage = ses_world.session.get_usage()
    ses_world.output = synapse.format_cost_output(ses_world.usage)


@then(parsers.parse('应恢复最后创建的那个会话，标题为 "{title}"'))
def ses_then_continued_newest(ses_world: SesWorld, title: str) -> None:
    assert ses_world.error is None, f"Session.continue() raised {ses_world.error!r}"
    session = ses_world.result
    newest = ses_world.snapshot["older_ids"][-1]
    assert session is not None and (session.id, session.title) == (newest, title), (
        f"Session.continue() should resume {newest} titled {title!r}, got {session!r}"
    )


@then(parsers.parse('应恢复重新登记的那个会话，标题为 "{title}"'))
def ses_then_continued_reregistered(ses_world: SesWorld, title: str) -> None:
    assert ses_world.error is None, f"Session.continue() raised {ses_world.error!r}"
    session = ses_world.result
    expected = ses_world.session.id
    assert session is not None and (session.id, session.title) == (expected, title), (
        f"Session.continue() should resume the re-registered session {expected} titled {title!r}, "
        f"got {session!r}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: crash safety, concurrent writers and hostile values
# --------------------------------------------------------------------------------------------------------


def _history_messages(path: Path) -> list[Any]:
    """The complete lines of a history file that are JSON message objects, in order."""
    found = []
    for line in path.read_bytes().split(b"\n"):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("role"), str):
            found.append(value)
    return found


def _numbered(role: str, n: int) -> dict[str, Any]:
    return _text_message(role, f"第 {n} 条：可靠性")


@given("会话已有 1 条消息，且历史文件以一行未写完的消息结尾")
def ses_given_torn_history(synapse: Implementation, ses_world: SesWorld, docstring: str) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    first = _numbered("user", 1)
    session.append_message(first)
    fragment = docstring.strip().encode("utf-8")
    with session.history_path.open("ab") as handle:  # what a writer killed mid-line leaves behind
        handle.write(fragment)
    assert not session.history_path.read_bytes().endswith(b"\n")
    ses_world.session = session
    ses_world.snapshot.update(messages=[first], fragment=fragment)


@when("向会话追加一条新消息")
def ses_when_append_new(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    new = _numbered("assistant", 2)
    ses_world.snapshot["new"] = new
    caplog.clear()
    ses_world.session.append_message(new)


@then("历史文件的最后一行应恰好是新消息")
def ses_then_last_line_is_new(ses_world: SesWorld) -> None:
    data = ses_world.session.history_path.read_bytes()
    assert data.endswith(b"\n"), "the appended message should end with a newline"
    last = data[:-1].rsplit(b"\n", 1)[-1]
    try:
        parsed = json.loads(last)
    except ValueError as exc:
        raise AssertionError(
            f"the appended message was written onto the unfinished line, which is now unreadable: {last!r}"
        ) from exc
    assert parsed == ses_world.snapshot["new"], f"the last line should be the new message, got {parsed!r}"


@then("`session.loadHistory()` 应依次返回原有消息与新消息，并为未写完的行记录 warning")
def ses_then_history_keeps_both(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    caplog.clear()
    history = ses_world.session.load_history()
    expected = [*ses_world.snapshot["messages"], ses_world.snapshot["new"]]
    assert history == expected, f"loadHistory should give the old and the new message, got {history!r}"
    assert _synapse_warnings(caplog), "skipping the unfinished line should log a warning"


@given("会话已有 2 条消息")
def ses_given_two_messages(synapse: Implementation, ses_world: SesWorld) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    messages = [_numbered("user", 1), _numbered("assistant", 2)]
    session.append_message(messages)
    ses_world.session = session
    ses_world.snapshot.update(session_id=session.id, caller_model=None, messages=messages)


@given("另有 3 条消息已写入历史文件而索引未随之更新，如同写入者在两者之间被杀死")
def ses_given_unindexed_lines(ses_world: SesWorld) -> None:
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    extra = [_numbered("user" if n % 2 else "assistant", n) for n in (3, 4, 5)]
    with ses_world.session.history_path.open("ab") as handle:
        handle.write("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in extra).encode("utf-8"))
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before
    assert len(_history_messages(ses_world.session.history_path)) == 5


def _counts(synapse: Implementation, world: SesWorld, session_id: str) -> dict[str, Any]:
    found = synapse.find_session(session_id, world.sessions_dir)
    listed = [e for e in synapse.list_sessions(world.sessions_dir) if e.get("id") == session_id]
    return {
        "Session.find().messageCount": found.message_count if found is not None else None,
        "Session.list() messageCount": listed[0].get("messageCount") if listed else None,
    }


@then(parsers.parse("恢复的会话与 `Session.list()` 给出的 messageCount 都应为 {count:d}"))
def ses_then_counts_follow_file(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    session_id = ses_world.snapshot["session_id"]
    counts = _counts(synapse, ses_world, session_id)
    in_file = len(_history_messages(ses_world.sessions_dir / f"{session_id}.jsonl"))
    assert in_file == count, f"setting up: the history file should hold {count} messages, it holds {in_file}"
    assert all(value == count for value in counts.values()), (
        f"the history file holds {count} messages; the counts should say so too, got {counts}"
    )


@when("通过 `Session.find()` 得到同一会话的两个对象 a 与 b")
def ses_when_two_objects(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["session_id"]
    pair = [
        synapse.find_session(session_id, ses_world.sessions_dir, pricing=SONNET_PRICING) for _ in range(2)
    ]
    assert all(s is not None and s.id == session_id for s in pair), f"Session.find should find {session_id}"
    ses_world.snapshot["pair"] = pair


@when(
    parsers.parse(
        "a 记录一轮 inputOther 为 {first:d} 的 usage，随后 b 记录一轮 inputOther 为 {second:d} 的 usage"
    )
)
def ses_when_pair_usage(ses_world: SesWorld, first: int, second: int) -> None:
    a, b = ses_world.snapshot["pair"]
    for session, amount in ((a, first), (b, second)):
        session.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": amount})


@when(parsers.parse("a 追加 {first:d} 条消息，随后 b 追加 {second:d} 条消息"))
def ses_when_pair_append(ses_world: SesWorld, first: int, second: int) -> None:
    a, b = ses_world.snapshot["pair"]
    for session, count in ((a, first), (b, second)):
        session.append_message([_numbered("user", 100 + n) for n in range(count)])


@then(parsers.parse("索引中该会话的 usage.totalInputOther 应为 {total:d}"))
def ses_then_index_total(ses_world: SesWorld, total: int) -> None:
    entry = _index_entry(ses_world.sessions_dir, ses_world.snapshot["session_id"])
    stored = (entry.get("usage") or {}).get("totalInputOther")
    assert stored == total, f"sessions.json should hold every round's input ({total}), got {stored!r}"


@then(
    parsers.parse(
        "重新恢复的会话 usage.totalInputOther 应为 {total:d}，"
        "messageCount 与历史文件中的消息数都应为 {count:d}"
    )
)
def ses_then_refound_total_and_count(
    synapse: Implementation, ses_world: SesWorld, total: int, count: int
) -> None:
    session_id = ses_world.snapshot["session_id"]
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    assert found is not None, f"Session.find should find {session_id}"
    usage = found.get_usage()
    in_file = len(_history_messages(found.history_path))
    observed = (usage.get("totalInputOther"), found.message_count, in_file)
    assert observed == (total, count, count), (
        f"expected totalInputOther {total} and {count} messages counted and in the file, "
        f"got (totalInputOther, messageCount, messages in file) = {observed}"
    )


@then(parsers.parse("重新恢复的会话 usage.totalInputOther 应为 {total:d}"))
def ses_then_refound_total(synapse: Implementation, ses_world: SesWorld, total: int) -> None:
    found = synapse.find_session(ses_world.snapshot["session_id"], ses_world.sessions_dir)
    assert found is not None
    assert found.get_usage().get("totalInputOther") == total, (
        f"every process's rounds should be in the usage ({total}), got {found.get_usage()!r}"
    )


@when("另一个进程在重写该会话历史的中途被杀死")
def ses_when_rewrite_killed(synapse: Implementation, ses_world: SesWorld) -> None:
    session = ses_world.session
    ses_world.snapshot.update(
        listing=_listing(ses_world.sessions_dir), history_bytes=session.history_path.read_bytes()
    )
    big = [
        _text_message("user", f"第 {i} 条：" + "x" * KILLED_REWRITE_MESSAGE_CHARS)
        for i in range(KILLED_REWRITE_MESSAGE_COUNT)
    ]
    session_id, sessions_dir = session.id, ses_world.sessions_dir

    def rewrite(other: Implementation) -> None:
        resumed = other.find_session(session_id, sessions_dir)
        assert resumed is not None
        resumed.rewrite_history(big)

    probes.killed_while_writing(synapse, sessions_dir, rewrite)


@when("会话随后记录一轮 usage")
def ses_when_next_usage(ses_world: SesWorld) -> None:
    ses_world.session.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": 1})


@then("会话目录中的文件应与重写前相同，没有残留的临时文件")
def ses_then_no_leftovers(ses_world: SesWorld) -> None:
    before: set[str] = ses_world.snapshot["listing"]
    after = _listing(ses_world.sessions_dir)
    assert after == before, (
        f"the next write should remove what the killed rewrite left: new files {sorted(after - before)}, "
        f"gone {sorted(before - after)}"
    )


@then("历史文件应仍为重写前的内容")
def ses_then_history_as_before(ses_world: SesWorld) -> None:
    assert ses_world.session.history_path.read_bytes() == ses_world.snapshot["history_bytes"], (
        "a rewrite killed before it finished must leave the old history byte for byte"
    )


@given(parsers.parse("会话历史文件的第 2 行为 {line}"))
def ses_given_second_line(synapse: Implementation, ses_world: SesWorld, line: str) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    first, third = _numbered("user", 1), _numbered("assistant", 3)
    lines = [json.dumps(first, ensure_ascii=False), line.strip(), json.dumps(third, ensure_ascii=False)]
    session.history_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    json.loads(line)  # setting up: the line is valid JSON, only not a message
    ses_world.session = session
    ses_world.snapshot["expected"] = [first, third]


_NAMED_FIELD = {"不是消息对象": None, "没有字符串 role": "role", "的 toolCalls 不是数组": "toolCalls"}
"""What a warning about a line that is no message must name besides the line: the offending field."""


@then(parsers.parse("应只返回第 1、3 行的消息，并记录一条指出第 2 行{why}的 warning"))
def ses_then_only_messages(ses_world: SesWorld, caplog: pytest.LogCaptureFixture, why: str) -> None:
    assert ses_world.error is None, f"loadHistory should skip the line, it raised {ses_world.error!r}"
    assert ses_world.result == ses_world.snapshot["expected"], (
        f"only the message objects should be returned, got {ses_world.result!r}"
    )
    path = str(ses_world.session.history_path)
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    assert len(warnings) == 1, f"skipping the line should log one warning, got {warnings!r}"
    numbers = re.findall(r"\d+", warnings[0].replace(path, ""))
    assert path in warnings[0] and numbers[:1] == ["2"], (
        f"the warning should name line 2 of {path} first: {warnings[0]!r}"
    )
    field = _NAMED_FIELD[why]
    assert field is None or field in warnings[0], (
        f"the warning should say what is wrong ({field}): {warnings[0]!r}"
    )


_BASE_ENTRY: dict[str, Any] = {
    "id": "session-m6x3k2a1-abc123",
    "createdAt": "2026-01-02T03:04:05.678Z",
    "updatedAt": "2026-01-02T03:05:00.000Z",
    "messageCount": 2,
    "title": "修复登录页面",
    "usage": {
        "totalInputOther": 100,
        "totalOutput": 50,
        "totalCacheRead": 300,
        "totalCacheCreation": 100,
        "model": SONNET,
        "rounds": [{"inputOther": 100, "output": 50, "inputCacheRead": 300, "inputCacheCreation": 100}],
        "totalCost": 0.0024,
    },
}
_RAW_MARK = "@@raw-value@@"


@given(parsers.parse("`sessions.json` 中会话条目的 {field} 原文为 {text}"))
def ses_given_raw_index_value(ses_world: SesWorld, field: str, text: str) -> None:
    digits = re.fullmatch(r"(\d+) 位的整数", text.strip())
    raw = "1" + "0" * (int(digits[1]) - 1) if digits else text.strip()
    entry = json.loads(json.dumps(_BASE_ENTRY))
    *parents, last = field.split(".")
    target = entry
    for key in parents:
        target = target[key]
    target[last] = _RAW_MARK
    index = {"version": "1.0.0", "sessions": [entry], "updatedAt": "2026-01-02T03:05:00.000Z"}
    text_out = json.dumps(index, ensure_ascii=False, indent=2).replace(f'"{_RAW_MARK}"', raw)
    (ses_world.sessions_dir / "sessions.json").write_text(text_out, encoding="utf-8")
    ses_world.snapshot.update(index_bytes=text_out.encode("utf-8"), index_data=index)


@then("`Session.find()` 与 `Session.continue()` 都应返回 `null`")
def ses_then_find_continue_null(synapse: Implementation, ses_world: SesWorld) -> None:
    outcomes: dict[str, Any] = {}
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("find", lambda: synapse.find_session(str(_BASE_ENTRY["id"]), ses_world.sessions_dir)),
        ("continue", lambda: synapse.continue_session(ses_world.sessions_dir)),
    ]
    for name, action in calls:
        try:
            outcomes[name] = action()
        except Exception as exc:
            raise AssertionError(f"Session.{name} raised {exc!r}; it should return None") from exc
    assert outcomes == {"find": None, "continue": None}, f"both should give None, got {outcomes!r}"


@then(parsers.parse("该会话 usage 的 `/cost` 输出中 Cost 应为 {shown}"))
def ses_then_cost_shown(synapse: Implementation, ses_world: SesWorld, shown: str) -> None:
    line = synapse.format_cost_output(ses_world.session.get_usage())
    assert "Cost: " in line, f"the cost line should have a 'Cost: ' field: {line!r}"
    cost = line.rsplit("Cost: ", 1)[1].strip()
    if shown == "N/A":
        assert cost == "N/A", f"an unknown cost should read N/A, got {cost!r}"
    else:
        assert cost.startswith("$"), f"the cost should be shown in dollars like {shown}, got {cost!r}"
        assert float(cost[1:]) == pytest.approx(float(shown[1:]), rel=1e-9), (
            f"the cost should be about {shown}, got {cost!r}"
        )


@given("usage 记录为")
def ses_given_usage_json(ses_world: SesWorld, docstring: str) -> None:
    ses_world.usage = json.loads(docstring)  # NaN and Infinity as JavaScript would hand them over


@given(parsers.parse("usage 记录为下面的 JSON，但 `{field}` 为 2 的 {power:d} 次方"))
def ses_given_usage_with_power(ses_world: SesWorld, docstring: str, field: str, power: int) -> None:
    ses_world.usage = {**json.loads(docstring), field: 2**power}


@then(parsers.parse("应记录一条指明 `{field}` 的 warning，warning 中没有该数字的前 {digits:d} 位"))
def ses_then_warned_without_digits(
    ses_world: SesWorld, caplog: pytest.LogCaptureFixture, field: str, digits: int
) -> None:
    assert ses_world.usage is not None, "setting up: no usage record was given"
    leading = str(ses_world.usage[field])[:digits]
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    assert any(field in warning for warning in warnings), f"a warning should name {field}, got {warnings!r}"
    quoting = [warning for warning in warnings if leading in warning]
    assert not quoting, f"no warning should quote the number's digits ({leading}...), got {quoting!r}"


@then("每条 warning 都应给出该字段的值")
def ses_then_warnings_show_values(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    usage = ses_world.usage or {}
    warnings = [probes.logged_text(r).lower() for r in _synapse_warnings(caplog)]
    for key, value in usage.items():
        named = [warning for warning in warnings if key.lower() in warning]
        if not key.startswith("total") or not named or not isinstance(value, (bool, str)):
            continue
        shown = json.dumps(value).strip('"').lower()  # true, or the string's characters
        assert any(shown in warning for warning in named), (
            f"the warning about {key} should show its value {shown}, got {named!r}"
        )


@then(parsers.parse("应为 {fields} 各记录一条指明该字段的 warning"))
def ses_then_warned_per_field(caplog: pytest.LogCaptureFixture, fields: str) -> None:
    names = [name.strip("` ") for name in re.split(r"[、与]", fields)]
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    unnamed = [name for name in names if not any(name in warning for warning in warnings)]
    assert not unnamed and len(warnings) >= len(names), (
        f"each value that cannot be shown ({', '.join(names)}) should have a warning naming its field; "
        f"not named: {unnamed}, warnings: {warnings!r}"
    )


@then("应为每个无法显示的数值记录 warning")
def ses_then_warned_per_value(caplog: pytest.LogCaptureFixture) -> None:
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    assert len(warnings) >= 3, (
        "totalInputOther, totalOutput and totalCost cannot be shown; each should log a warning, "
        f"got {warnings!r}"
    )


@when(
    parsers.parse(
        "{procs:d} 个进程各自恢复该会话，"
        "同时各追加 {each:d} 条消息并记录 {rounds:d} 轮 inputOther 为 1 的 usage"
    )
)
def ses_when_processes_share_session(
    synapse: Implementation, ses_world: SesWorld, procs: int, each: int, rounds: int
) -> None:
    session_id = ses_world.snapshot["session_id"]

    def write(impl: Implementation) -> int:
        session = impl.find_session(session_id, ses_world.sessions_dir, pricing=SONNET_PRICING)
        assert session is not None, f"a process could not find {session_id}"
        for i in range(each):
            session.append_message(_numbered("user", 1000 + i))
            if i % (each // rounds) == 0:
                session.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": 1})
        return each

    written = probes.in_parallel_processes(synapse, procs, write)
    assert written == [each] * procs, f"every process should have appended {each} messages, got {written}"


def _of_length(n: int) -> dict[str, Any]:
    """Message ``n`` of a run of appends: its length changes from one message to the next, so the lines
    two processes append at the same moment hardly ever have the same length."""
    return _text_message("user", f"第 {n} 条" + "·" * ((n * 7) % 17))


@when(
    parsers.parse(
        "在 {sessions:d} 个新会话上依次让 {procs:d} 个进程同时各追加 {each:d} 条长短不一的消息，"
        "各进程最后记录一轮 usage"
    )
)
def ses_when_processes_append_unevenly(
    synapse: Implementation, ses_world: SesWorld, sessions: int, procs: int, each: int
) -> None:
    ids = []
    for _ in range(sessions):
        session = synapse.create_session(ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
        session.append_message(_numbered("user", 1))
        session_id = session.id

        def write(impl: Implementation, session_id: str = session_id) -> int:
            found = impl.find_session(session_id, ses_world.sessions_dir, pricing=SONNET_PRICING)
            assert found is not None, f"a process could not find {session_id}"
            for n in range(each):
                found.append_message(_of_length(n))
            found.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": 1})
            return each

        written = probes.in_parallel_processes(synapse, procs, write)
        assert written == [each] * procs, f"every process should have appended {each} messages, got {written}"
        ids.append(session_id)
    ses_world.snapshot["session_ids"] = ids


@then(parsers.parse("依次写入的每个会话，其历史文件都应恰有 {count:d} 行消息"))
def ses_then_each_history_lines(ses_world: SesWorld, count: int) -> None:
    for session_id in ses_world.snapshot["session_ids"]:
        ses_world.snapshot["session_id"] = session_id
        ses_then_history_lines(ses_world, count)


@then(parsers.parse("依次写入的每个会话，恢复后与 `Session.list()` 给出的 messageCount 都应为 {count:d}"))
def ses_then_each_count(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    ids = ses_world.snapshot["session_ids"]
    found = {session_id: _counts(synapse, ses_world, session_id) for session_id in ids}
    wrong = {session_id: counts for session_id, counts in found.items() if set(counts.values()) != {count}}
    assert not wrong, f"every session's history holds {count} messages; the counts should say so: {wrong}"


@then(parsers.parse("历史文件应恰有 {count:d} 行消息"))
def ses_then_history_lines(ses_world: SesWorld, count: int) -> None:
    path = ses_world.sessions_dir / f"{ses_world.snapshot['session_id']}.jsonl"
    lines = [line for line in path.read_bytes().split(b"\n") if line.strip()]
    messages = _history_messages(path)
    assert (len(lines), len(messages)) == (count, count), (
        f"the history should hold {count} lines, each a message; it has {len(lines)} lines, "
        f"{len(messages)} of them messages"
    )


@when("向最早创建的会话追加一条消息")
def ses_when_write_to_oldest(synapse: Implementation, ses_world: SesWorld) -> None:
    oldest = ses_world.snapshot["older_ids"][0]
    session = synapse.find_session(oldest, ses_world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    assert session is not None, f"Session.find({oldest!r}) should find the session just created"
    time.sleep(0.002)  # a later updatedAt than every creation
    session.append_message(_text_message("assistant", "较早的会话又收到了一条消息"))


@then(parsers.parse("`Session.list()` 应按创建时间从新到旧列出这 {count:d} 个会话"))
def ses_then_listed_by_creation(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    expected = list(reversed(ses_world.snapshot["older_ids"]))
    listed = [e.get("id") for e in synapse.list_sessions(ses_world.sessions_dir)]
    assert len(expected) == count and listed == expected, (
        "Session.list() keeps the index order, newest created first, whatever session was written to "
        f"last: expected {expected!r}, got {listed!r}"
    )


@when("执行 `clear(resetUsage=false)`")
def ses_when_clear_keeping_usage(ses_world: SesWorld) -> None:
    ses_world.snapshot["usage_before_clear"] = ses_world.session.get_usage()
    ses_world.session.clear(reset_usage=False)


@then("usage 应与清空前一致")
def ses_then_usage_kept(ses_world: SesWorld) -> None:
    before = ses_world.snapshot["usage_before_clear"]
    usage = ses_world.session.get_usage()
    assert usage == before, f"clear(resetUsage=false) must keep the usage: before {before!r}, after {usage!r}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: an evicted session whose files cannot be removed
# --------------------------------------------------------------------------------------------------------


@given("最早那个会话的历史文件无法被任何进程删除")
def ses_given_oldest_history_undeletable(ses_world: SesWorld, request: pytest.FixtureRequest) -> None:
    path = ses_world.sessions_dir / f"{ses_world.snapshot['older_ids'][0]}.jsonl"
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.undeletable(path))
    ses_world.snapshot["undeletable"] = path


@then("`Session.find()` 应找到新会话")
def ses_then_new_session_found(synapse: Implementation, ses_world: SesWorld) -> None:
    found = synapse.find_session(ses_world.session.id, ses_world.sessions_dir)
    assert found is not None, f"Session.find({ses_world.session.id!r}) should find the new session"


@then("应记录一条指明该历史文件路径的 warning")
def ses_then_warning_names_undeletable(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    path = str(ses_world.snapshot["undeletable"])
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    assert any(path in message for message in warnings), (
        f"a file of an evicted session that cannot be deleted must be named in a warning ({path}), "
        f"got {warnings}"
    )


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: a history path that cannot be read
# --------------------------------------------------------------------------------------------------------


@given("该会话的历史文件被换成一个同名的目录")
def ses_given_history_is_directory(ses_world: SesWorld) -> None:
    path = ses_world.sessions_dir / f"{ses_world.snapshot['session_id']}.jsonl"
    path.unlink()
    path.mkdir()
    ses_world.snapshot["history_path"] = path


@then(
    parsers.parse("恢复的会话的 messageCount 应为索引中的 {count:d}，并记录一条指明该历史文件路径的 warning")
)
def ses_then_index_count_and_warning(
    ses_world: SesWorld, caplog: pytest.LogCaptureFixture, count: int
) -> None:
    stored = _index_entry(ses_world.sessions_dir, ses_world.snapshot["session_id"])["messageCount"]
    assert stored == count, f"setting up: the index should count {count} messages, it counts {stored}"
    assert ses_world.session.message_count == count, (
        f"a history that cannot be read leaves the index's count ({count}), "
        f"got {ses_world.session.message_count}"
    )
    path = str(ses_world.snapshot["history_path"])
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    assert any(path in message for message in warnings), (
        f"a history file that cannot be read must be named in a warning ({path}), got {warnings}"
    )


@when(parsers.parse("按如下定价表累积一轮只含 {partial} 的 usage"))
def ses_when_accumulate_with_pricing(
    synapse: Implementation, ses_world: SesWorld, partial: str, docstring: str
) -> None:
    assert ses_world.usage is not None
    ses_world.usage = synapse.accumulate_usage(ses_world.usage, json.loads(partial), json.loads(docstring))


@then(parsers.parse('累积结果的 `totalCost` 应为 null，并记录一条指明模型 "{model}" 的 warning'))
def ses_then_cost_unknown_warned(ses_world: SesWorld, caplog: pytest.LogCaptureFixture, model: str) -> None:
    usage = dict(ses_world.usage or {})
    assert "totalCost" in usage and usage["totalCost"] is None, (
        f"a cost no finite number can hold must be stored as null (unknown), got {usage.get('totalCost')!r}"
    )
    warnings = [probes.logged_text(r) for r in _synapse_warnings(caplog)]
    assert any(model in message for message in warnings), (
        f"a cost that overflows must be named in a warning with its model {model!r}, got {warnings}"
    )


@given("该会话的历史文件不存在")
@when("该会话的历史文件不存在")
def ses_given_history_missing(ses_world: SesWorld) -> None:
    path = Path(ses_world.session.history_path)
    path.unlink(missing_ok=True)
    assert not path.exists(), f"setting up: {path} should not exist"


@then("`session.loadHistory()` 应返回空列表")
def ses_then_missing_history_empty(ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"loading a missing history should not raise, raised {ses_world.error!r}"
    assert ses_world.result == [] and isinstance(ses_world.result, list), (
        "a history that does not exist holds no messages: loadHistory should return [], "
        f"got {ses_world.result!r}"
    )
