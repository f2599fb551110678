"""Steps of the history's and the index's fast paths: block reads, one-call encoding of a batch, counts
carried over from the index, batched index updates, and the cleaning of temporary files.

Every outcome is observed on disk (the history file, ``sessions.json``, the sessions directory), in the
replies of ``load_history``, ``find_session`` and ``list_sessions``, and in the log.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from steps.session import (
    ROUND_KEYS,
    SONNET,
    SesWorld,
    _empty_usage,
    _history_messages,
    _index_entry,
    _read_index,
    _synapse_warnings,
    _text_message,
    _write_index,
)
from synapse_spec import probes
from synapse_spec.contract import Implementation

ORIGINAL_ENTRY_KEYS = ("id", "createdAt", "updatedAt", "messageCount", "title", "cwd", "usage")
"""The fields of an index entry in the original's schema (``SessionsIndexSchema``)."""

LONG_TEXT_UNIT = "长消息：汉字与表情😀交替出现，行在读取的块边界处被切开。"
"""Text of a long message: multi-byte characters, so a block boundary falls inside a character."""


def _size(text: str) -> int:
    number, unit = text.split()
    return int(number) * {"KiB": 1 << 10, "MiB": 1 << 20}[unit]


def _long_message(role: str, size: int, n: int) -> dict[str, Any]:
    unit = f"{n}：{LONG_TEXT_UNIT}"
    repeat = size // len(unit.encode("utf-8")) + 1
    return _text_message(role, unit * repeat)


def _planned(lengths: str) -> list[dict[str, Any]]:
    """The messages a comma-separated plan such as ``短, 1 MiB, 2000 条短`` names, roles alternating."""
    messages: list[dict[str, Any]] = []
    for item in (part.strip() for part in lengths.split(",")):
        many = re.fullmatch(r"(\d+) 条短", item)
        for _ in range(int(many[1]) if many else 1):
            role = "user" if len(messages) % 2 == 0 else "assistant"
            n = len(messages) + 1
            messages.append(
                _text_message(role, f"第 {n} 条短消息")
                if many or item == "短"
                else _long_message(role, _size(item), n)
            )
    return messages


def _counts(synapse: Implementation, world: SesWorld) -> dict[str, Any]:
    session_id = world.session.id
    found = synapse.find_session(session_id, world.sessions_dir)
    listed = [e for e in synapse.list_sessions(world.sessions_dir) if e.get("id") == session_id]
    return {
        "session object": world.session.message_count,
        "Session.find()": found.message_count if found is not None else None,
        "Session.list()": listed[0].get("messageCount") if listed else None,
    }


def _assert_counts(synapse: Implementation, world: SesWorld, count: int) -> None:
    counts = _counts(synapse, world)
    assert all(value == count for value in counts.values()), (
        f"the history holds {count} messages; every count should say so, got {counts}"
    )


# --------------------------------------------------------------------------------------------------------
# Given
# --------------------------------------------------------------------------------------------------------


@given("索引中该会话的条目只剩原版 schema 中的字段，如同由原版写入")
def fast_given_original_entry(ses_world: SesWorld) -> None:
    index = _read_index(ses_world.sessions_dir)
    session_id = ses_world.snapshot["session_id"]
    index["sessions"] = [
        {key: e[key] for key in ORIGINAL_ENTRY_KEYS if key in e} if e.get("id") == session_id else e
        for e in index["sessions"]
    ]
    _write_index(ses_world, index)


@given(parsers.parse("会话目录中有一个{age}的文件 {name}"))
def fast_given_foreign_file(ses_world: SesWorld, age: str, name: str) -> None:
    path = ses_world.sessions_dir / name
    content = f"{name} 的内容，不属于任何会话".encode()
    path.write_bytes(content)
    seconds = re.fullmatch(r"([\d.]+) 秒前", age)
    if age == "两小时前" or seconds:
        then = time.time() - (float(seconds[1]) if seconds else 2 * 3600)
        os.utime(path, (then, then))
    else:
        assert age == "刚写入", f"unknown age {age!r}"
    ses_world.snapshot.update(foreign=path, foreign_content=content)


# --------------------------------------------------------------------------------------------------------
# When
# --------------------------------------------------------------------------------------------------------


@when("紧接着再一次追加同样的消息")
def fast_when_append_again(ses_world: SesWorld) -> None:
    ses_world.session.append_message(json.loads(json.dumps(ses_world.snapshot["batch"])))


@when(parsers.parse("依次逐条追加以下长度的消息: {lengths}"))
def fast_when_append_planned(ses_world: SesWorld, lengths: str) -> None:
    messages = _planned(lengths)
    for message in messages:
        ses_world.session.append_message(message)
    ses_world.snapshot["appended"] = messages


@when(parsers.parse("一次追加 {count:d} 条消息，其中第 {which:d} 条的 content 为 {content}"))
def fast_when_append_with_content(ses_world: SesWorld, count: int, which: int, content: str) -> None:
    messages = [_text_message("user" if n % 2 else "assistant", f"第 {n} 条") for n in range(1, count + 1)]
    messages[which - 1] = {**messages[which - 1], "content": json.loads(content)}
    ses_world.session.append_message(json.loads(json.dumps(messages)))
    ses_world.snapshot["appended"] = messages


# --------------------------------------------------------------------------------------------------------
# Then
# --------------------------------------------------------------------------------------------------------


@then(parsers.parse("`session.loadHistory()` 应返回 {count:d} 条消息，并为其余的行记录 warning"))
def fast_then_loaded_count(ses_world: SesWorld, caplog: pytest.LogCaptureFixture, count: int) -> None:
    path = Path(ses_world.session.history_path)
    lines = [line for line in path.read_bytes().split(b"\n") if line.strip()]
    caplog.clear()
    history = ses_world.session.load_history()
    assert len(history) == count, f"loadHistory should give the {count} messages, got {history!r}"
    warnings = _synapse_warnings(caplog)
    assert len(warnings) == len(lines) - count, (
        f"each of the {len(lines) - count} lines that hold no message should log a warning, got "
        f"{[r.getMessage() for r in warnings]!r}"
    )


@then(parsers.parse("会话对象、`Session.find()` 与 `Session.list()` 给出的 messageCount 都应为 {count:d}"))
def fast_then_counts(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    _assert_counts(synapse, ses_world, count)


@then("会话对象、`Session.find()` 与 `Session.list()` 给出的 messageCount 都应为追加的条数")
def fast_then_counts_appended(synapse: Implementation, ses_world: SesWorld) -> None:
    _assert_counts(synapse, ses_world, len(ses_world.snapshot["appended"]))


@then(parsers.parse("`Session.find()` 恢复的会话的 messageCount 应为 {count:d}"))
def fast_then_found_count(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    session_id = ses_world.snapshot["session_id"]
    in_file = len(_history_messages(ses_world.sessions_dir / f"{session_id}.jsonl"))
    assert in_file == count, f"setting up: the history file should hold {count} messages, it holds {in_file}"
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    assert found is not None, f"Session.find should find {session_id}"
    assert found.message_count == count, (
        f"the entry does not say up to where it counted, so Session.find should count the history file's "
        f"{count} messages, got {found.message_count}"
    )
    ses_world.session = found


@then("`session.loadHistory()` 应原样依次返回这些消息，不记录 warning")
def fast_then_loaded_as_appended(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    caplog.clear()
    history = ses_world.session.load_history()
    expected = ses_world.snapshot["appended"]
    if history != expected:
        lengths = [len(json.dumps(m, ensure_ascii=False)) for m in history]
        pairs = enumerate(zip(history, expected, strict=False))
        first = next((i for i, (got, want) in pairs if got != want), min(len(history), len(expected)))
        raise AssertionError(
            f"loadHistory should give the {len(expected)} appended messages unchanged; got {len(history)} "
            f"messages of {lengths[:20]} characters, the first differing at index {first}"
        )
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    assert not warnings, f"loading whole messages should log no warning, got {warnings!r}"


@then(parsers.parse("历史文件应恰有 {count:d} 行，每行是一条消息"))
def fast_then_lines(ses_world: SesWorld, count: int) -> None:
    path = Path(ses_world.session.history_path)
    data = path.read_bytes()
    lines = data.split(b"\n")
    assert data.endswith(b"\n") and len(lines) == count + 1, (
        f"the history should be {count} lines, each ending with a newline; got {data[:300]!r}..."
    )
    messages = _history_messages(path)
    assert len(messages) == count, f"each of the {count} lines should be a message, got {lines!r}"


@then(parsers.parse("该文件是否还在且内容不变: {kept}"))
def fast_then_foreign_file(ses_world: SesWorld, kept: str) -> None:
    path: Path = ses_world.snapshot["foreign"]
    if kept == "是":
        assert path.is_file(), f"{path.name} is not a file of a session write and should stay"
        assert path.read_bytes() == ses_world.snapshot["foreign_content"], f"{path.name} should be unchanged"
    else:
        assert kept == "否"
        assert not path.exists(), f"{path.name} is a temporary file over an hour old and should be removed"
    names = {p.name for p in ses_world.sessions_dir.iterdir()}
    assert "sessions.json" in names, "creating the session should have written sessions.json"


@when("a 追加 1 条消息，紧接着再追加 1 条约 2 KiB 的消息")
def fast_when_a_appends_twice(ses_world: SesWorld) -> None:
    a, _ = ses_world.snapshot["pair"]
    a.append_message(_text_message("user", "a 的第 1 条"))
    a.append_message(_long_message("assistant", 2 << 10, 2))


@when("b 用 1 条消息重写会话历史")
def fast_when_b_rewrites(ses_world: SesWorld) -> None:
    _, b = ses_world.snapshot["pair"]
    b.rewrite_history([_text_message("user", "b 重写后的唯一一条")])


@when(
    parsers.parse(
        "又有 {count:d} 条消息直接写入新的历史文件而索引未随之更新，如同另一个写入者在两者之间被杀死"
    )
)
def fast_when_unindexed_lines(ses_world: SesWorld, count: int) -> None:
    path = ses_world.sessions_dir / f"{ses_world.snapshot['session_id']}.jsonl"
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    lines = [
        json.dumps(
            _text_message("user" if n % 2 else "assistant", f"第 {n} 条，另一个写入者"), ensure_ascii=False
        )
        for n in range(count)
    ]
    with path.open("ab") as handle:
        handle.write("".join(f"{line}\n" for line in lines).encode("utf-8"))
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@when(parsers.parse("a 记录一轮 inputOther 为 {amount:d} 的 usage"))
def fast_when_a_usage(ses_world: SesWorld, amount: int) -> None:
    a, _ = ses_world.snapshot["pair"]
    a.update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": amount})


@then(parsers.parse("a 与索引中该会话的 messageCount 都应为 {count:d}"))
def fast_then_a_and_index_count(ses_world: SesWorld, count: int) -> None:
    a, _ = ses_world.snapshot["pair"]
    entries = [e for e in _read_index(ses_world.sessions_dir)["sessions"] if e.get("id") == a.id]
    counts = {"a": a.message_count, "sessions.json": entries[0].get("messageCount") if entries else None}
    assert counts == {"a": count, "sessions.json": count}, (
        f"the history file holds {count} messages; a and its index entry should say so, got {counts}"
    )


@when(parsers.parse('紧接着追加第一条用户消息 "{text}"'))
def fast_when_append_first_user(ses_world: SesWorld, text: str) -> None:
    ses_world.session.append_message(_text_message("user", text))


@then(parsers.parse('`sessions.json` 与 `Session.list()` 中该会话的标题都应已是 "{title}"'))
def fast_then_title_written(synapse: Implementation, ses_world: SesWorld, title: str) -> None:
    session_id = ses_world.session.id
    entries = [e for e in _read_index(ses_world.sessions_dir)["sessions"] if e.get("id") == session_id]
    listed = [e for e in synapse.list_sessions(ses_world.sessions_dir) if e.get("id") == session_id]
    titles = {
        "sessions.json": entries[0].get("title") if entries else None,
        "Session.list()": listed[0].get("title") if listed else None,
    }
    assert titles == {"sessions.json": title, "Session.list()": title}, (
        f"the append that gives the session its title should write it to the index at once, got {titles}"
    )


@given(parsers.parse("一个{state}的会话"))
def fast_given_empty_history(synapse: Implementation, ses_world: SesWorld, state: str) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET)
    if state == "有过 2 条消息后被 `clear()` 清空":
        session.append_message([_text_message("user", "问"), _text_message("assistant", "答")])
        session.clear()
    elif state == "刚创建、还没有消息，之后原版又创建了一个会话":
        newer = synapse.create_session(ses_world.sessions_dir, model=SONNET)
        index = _read_index(ses_world.sessions_dir)
        index["sessions"] = [
            {key: e[key] for key in ORIGINAL_ENTRY_KEYS if key in e} if e.get("id") == newer.id else e
            for e in index["sessions"]
        ]
        assert [e.get("id") for e in index["sessions"]][:2] == [newer.id, session.id]
        _write_index(ses_world, index)
    else:
        assert state == "刚创建、还没有消息", f"unknown state {state!r}"
    ses_world.session = session
    ses_world.snapshot["session_id"] = session.id


@given("有 3 条消息已写入它的历史文件而索引未随之更新，如同写入者在两者之间被杀死")
def fast_given_first_lines_unindexed(ses_world: SesWorld) -> None:
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    lines = [json.dumps(_text_message("user", f"第 {n} 条"), ensure_ascii=False) + "\n" for n in (1, 2, 3)]
    with Path(ses_world.session.history_path).open("ab") as handle:
        handle.write("".join(lines).encode("utf-8"))
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@given(parsers.parse("另一个程序把 {count:d} 条消息写成以 UTF-8 BOM 开头的历史文件，索引未随之更新"))
def fast_given_history_with_bom(ses_world: SesWorld, count: int) -> None:
    path = Path(ses_world.session.history_path)
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    lines = [
        json.dumps(_text_message("user", f"第 {n} 条"), ensure_ascii=False) + "\n"
        for n in range(1, count + 1)
    ]
    path.write_bytes(codecs.BOM_UTF8 + "".join(lines).encode("utf-8"))
    assert path.read_bytes().startswith(codecs.BOM_UTF8)
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@given(parsers.parse("会话目录中有一个刚建立的符号链接 {name}，指向会话目录外两小时前写入的文件"))
def fast_given_fresh_link(ses_world: SesWorld, name: str) -> None:
    target = ses_world.root / "outside.txt"
    target.write_text("会话目录外的文件", encoding="utf-8")
    then = time.time() - 2 * 3600
    os.utime(target, (then, then))
    link = ses_world.sessions_dir / name
    link.symlink_to(target)
    ses_world.snapshot.update(link=link, target=target)


@then("该符号链接与它指向的文件都应还在")
def fast_then_link_kept(ses_world: SesWorld) -> None:
    link: Path = ses_world.snapshot["link"]
    assert link.is_symlink(), f"{link.name} was created just now; it is not an hour-old temporary file"
    assert ses_world.snapshot["target"].read_text(encoding="utf-8") == "会话目录外的文件"
    assert (ses_world.sessions_dir / "sessions.json").is_file(), (
        "creating the session should write sessions.json"
    )


def _history_of(world: SesWorld) -> Path:
    return world.sessions_dir / f"{world.snapshot['session_id']}.jsonl"


@given(parsers.parse("历史文件末尾又写入一行没有换行的 {tail}，索引未随之更新"))
def fast_given_unterminated_tail(ses_world: SesWorld, tail: str) -> None:
    path = _history_of(ses_world)
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    with path.open("ab") as handle:  # what a writer killed before its newline, or another tool, leaves
        handle.write(tail.encode("utf-8"))
    assert not path.read_bytes().endswith(b"\n")
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@given(
    parsers.parse(
        "另一个程序把历史文件换成一个有 {count:d} 条消息的新文件，第一条约 2 KiB，先写临时文件再改名，"
        "索引未随之更新"
    )
)
def fast_given_history_replaced(ses_world: SesWorld, count: int) -> None:
    path = _history_of(ses_world)
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    old_inode = os.stat(path).st_ino
    messages = [_long_message("user", 2 << 10, 1)] + [
        _text_message("user" if n % 2 else "assistant", f"第 {n} 条，新文件") for n in range(2, count + 1)
    ]
    temp = path.with_name(f"{path.name}.new")
    temp.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages), encoding="utf-8")
    os.replace(temp, path)
    assert os.stat(path).st_ino != old_inode, "setting up: the new history should be another file"
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@given(
    parsers.re(
        r"^索引中该会话条目的 historySize 被其他工具改为 (?P<size>.+)，historyInode 改为 ?(?P<inode>.+)$"
    )
)
def fast_given_anchor_fields(ses_world: SesWorld, size: str, inode: str) -> None:
    history_inode = os.stat(_history_of(ses_world)).st_ino
    inodes = {"历史文件的 inode": history_inode, "历史文件的 inode 加 1": history_inode + 1}
    index = _read_index(ses_world.sessions_dir)
    for entry in index["sessions"]:
        if entry.get("id") == ses_world.snapshot["session_id"]:
            entry["historySize"] = json.loads(size)
            entry["historyInode"] = inodes[inode] if inode in inodes else json.loads(inode)
    _write_index(ses_world, index)


@given(parsers.parse("会话被 `clear()` 清空后用 {count:d} 条消息重写历史"))
def fast_given_cleared_then_rewritten(ses_world: SesWorld, count: int) -> None:
    ses_world.session.clear()
    ses_world.session.rewrite_history([_text_message("user", f"重写 {n}") for n in range(1, count + 1)])


def _one_of_pair(world: SesWorld, who: str) -> Any:
    a, b = world.snapshot["pair"]
    return {"a": a, "b": b}[who]


@when(parsers.re(r'^(?P<who>[ab]) 追加第一条用户消息 "(?P<text>.+)"$'))
def fast_when_pair_first_user(ses_world: SesWorld, who: str, text: str) -> None:
    _one_of_pair(ses_world, who).append_message(_text_message("user", text))


@when(parsers.re(r"^(?P<who>[ab]) 以模型 `(?P<model>[^`]+)` 记录一轮 usage$"))
def fast_when_pair_usage_model(ses_world: SesWorld, who: str, model: str) -> None:
    _one_of_pair(ses_world, who).update_usage({**dict.fromkeys(ROUND_KEYS, 0), "inputOther": 7}, model)


@when(parsers.re(r"^(?P<who>[ab]) 执行 `clear\(\)`$"))
def fast_when_pair_clear(ses_world: SesWorld, who: str) -> None:
    _one_of_pair(ses_world, who).clear()


@then(parsers.parse("索引中该会话的 usage 应为模型 `{model}` 的空 usage"))
def fast_then_index_empty_usage(ses_world: SesWorld, model: str) -> None:
    usage = _index_entry(ses_world.sessions_dir, ses_world.snapshot["session_id"]).get("usage")
    expected = _empty_usage(model)
    assert usage == expected, (
        f"clear() should reset the usage the index holds, whose model another object of the session set, "
        f"to {expected!r}; got {usage!r}"
    )


@when("a 追加 1 条消息，紧接着再一次追加 3 条消息")
def fast_when_a_appends_then_batch(ses_world: SesWorld) -> None:
    a, _ = ses_world.snapshot["pair"]
    a.append_message(_text_message("user", "a 的第 1 条"))
    batch = [_text_message("assistant" if n % 2 else "user", f"a 一次追加的第 {n} 条") for n in (1, 2, 3)]
    a.append_message(batch)


@when(
    parsers.parse(
        "另一个读者只读到了其中第一条：索引中该会话条目的 messageCount 为 {count:d}，"
        "historySize 为第 {line:d} 行之后的位置"
    )
)
def fast_when_reader_counted_part(ses_world: SesWorld, count: int, line: int) -> None:
    path = _history_of(ses_world)
    data = path.read_bytes()
    offset = 0
    for _ in range(line):
        offset = data.index(b"\n", offset) + 1
    assert offset < len(data), "setting up: the history should go on after that line"
    index = _read_index(ses_world.sessions_dir)
    for entry in index["sessions"]:
        if entry.get("id") == ses_world.snapshot["session_id"]:
            entry.update(messageCount=count, historySize=offset, historyInode=os.stat(path).st_ino)
    _write_index(ses_world, index)


@when("会话随后再追加 1 条消息")
def fast_when_append_one_more(ses_world: SesWorld) -> None:
    ses_world.session.append_message(_text_message("user", "随后追加的一条"))


@given("另一个程序在历史文件末尾写入一行不是 JSON 的内容与一条消息，索引未随之更新")
def fast_given_corrupt_line_and_message(ses_world: SesWorld) -> None:
    path = _history_of(ses_world)
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    message = json.dumps(_text_message("assistant", "损坏的行之后的一条"), ensure_ascii=False)
    with path.open("ab") as handle:
        handle.write(f'{{"role": "user", "content": 写到一半\n{message}\n'.encode())
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@then(
    parsers.parse(
        "`Session.list()` 与 `Session.find()` 给出的 messageCount 都应为 {count:d}，且都不记录 warning"
    )
)
def fast_then_counted_quietly(
    synapse: Implementation, ses_world: SesWorld, caplog: pytest.LogCaptureFixture, count: int
) -> None:
    session_id = ses_world.snapshot["session_id"]
    caplog.clear()
    listed = [e for e in synapse.list_sessions(ses_world.sessions_dir) if e.get("id") == session_id]
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    counts = {
        "Session.list()": listed[0].get("messageCount") if listed else None,
        "Session.find()": found.message_count if found is not None else None,
    }
    assert counts == {"Session.list()": count, "Session.find()": count}, (
        f"the history holds {count} messages; listing and resuming should say so, got {counts}"
    )
    warnings = [r.getMessage() for r in _synapse_warnings(caplog)]
    assert not warnings, (
        f"counting the lines to list or resume is no load and should log nothing, got {warnings}"
    )


@then("该文件若被清除，应记录一条指明其路径的 warning")
def fast_then_removal_warned(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    path: Path = ses_world.snapshot["foreign"]
    named = [r.getMessage() for r in _synapse_warnings(caplog) if str(path) in r.getMessage()]
    if path.exists():
        assert not named, f"{path.name} was kept; no warning should say it was removed, got {named!r}"
    else:
        assert named, f"removing {path} (left by an interrupted write) should log a warning naming it"


@given(parsers.parse("会话目录中有 {count:d} 个两小时前的目录 {prefix}<n> 与一个两小时前的文件 {name}"))
def fast_given_stale_dirs(ses_world: SesWorld, count: int, prefix: str, name: str) -> None:
    then = time.time() - 2 * 3600
    directories = [ses_world.sessions_dir / f"{prefix}{n}" for n in range(count)]
    for directory in directories:
        directory.mkdir()
        os.utime(directory, (then, then))
    stale = ses_world.sessions_dir / name
    stale.write_text("另一个工具被中断的写入", encoding="utf-8")
    os.utime(stale, (then, then))
    ses_world.snapshot.update(stale_dirs=directories, stale_file=stale)


@then(parsers.parse("这 {count:d} 个目录都应还在，文件 {name} 应已被清除"))
def fast_then_stale_dirs(ses_world: SesWorld, count: int, name: str) -> None:
    directories: list[Path] = ses_world.snapshot["stale_dirs"]
    assert len(directories) == count and all(d.is_dir() for d in directories), (
        "another program's directories are no temporary files and should stay"
    )
    assert not ses_world.snapshot["stale_file"].exists(), (
        f"{name} is a temporary file over an hour old and should be removed, whatever else could not be"
    )


LONG_HISTORY_CAP = 16 << 20
"""Longest message the long-history steps write."""


@given("会话已有 3 条长消息")
def fast_given_three_long(synapse: Implementation, ses_world: SesWorld) -> None:
    session = synapse.create_session(ses_world.sessions_dir, model=SONNET)
    session.append_message(_long_message("user", 1 << 20, 1))
    # The later messages outgrow the file's inode number (where the file system allows), so that an
    # offset and an inode mistaken for each other cannot give the same answer.
    size = min(max(1 << 20, os.stat(session.history_path).st_ino), LONG_HISTORY_CAP)
    session.append_message([_long_message("assistant", size, 2), _long_message("user", size, 3)])
    session.update_usage(dict.fromkeys(ROUND_KEYS, 0))  # an index update: the entry counts all three
    ses_world.session = session
    ses_world.snapshot["session_id"] = session.id


@given("另一个程序就地把历史文件截短为只有前 2 条消息，文件还是原来那个，索引未随之更新")
def fast_given_truncated_in_place(ses_world: SesWorld) -> None:
    path = _history_of(ses_world)
    index_before = (ses_world.sessions_dir / "sessions.json").read_bytes()
    inode = os.stat(path).st_ino
    data = path.read_bytes()
    second_end = data.index(b"\n", data.index(b"\n") + 1) + 1
    with path.open("r+b") as handle:  # as an editor saving over the file in place
        handle.truncate(second_end)
    assert os.stat(path).st_ino == inode and len(_history_messages(path)) == 2
    assert (ses_world.sessions_dir / "sessions.json").read_bytes() == index_before


@when(parsers.parse("在实现进程可写的文件大小上限只比历史文件多 {room:d} 字节时追加一条约 2 KiB 的消息"))
def fast_when_append_disk_full(synapse: Implementation, ses_world: SesWorld, room: int) -> None:
    path = _history_of(ses_world)
    before = path.read_bytes()
    ses_world.snapshot["history_before_append"] = before
    ses_world.error = None
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, len(before) + room):
        try:
            ses_world.session.append_message(_long_message("assistant", 2 << 10, 3))
        except Exception as exc:
            ses_world.error = exc


@then("追加应报错，历史文件应与追加前完全相同")
def fast_then_append_failed_cleanly(ses_world: SesWorld) -> None:
    assert ses_world.error is not None, "an append the disk has no room for should raise"
    after = _history_of(ses_world).read_bytes()
    before: bytes = ses_world.snapshot["history_before_append"]
    assert after == before, (
        f"a failed append should leave the history as it was ({len(before)} bytes), got {len(after)} bytes "
        f"ending {after[-80:]!r}"
    )
