"""Steps of deleting a session: by id (``delete_session``) and through a session object (``delete``).

Every outcome is observed on disk (the history file, the session's directory, ``sessions.json``) and in
the replies of ``find_session``, ``list_sessions`` and ``continue_session``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from steps.session import (
    SONNET,
    SONNET_PRICING,
    SesWorld,
    _call,
    _history_messages,
    _read_index,
    _text_message,
    _write_index,
)
from synapse_spec import probes
from synapse_spec.contract import Implementation

DELETE = "session-delete"
OFFLOADED = "offloaded/kept.txt"


def _files(directory: Path) -> dict[str, bytes | None]:
    """Every file and directory below ``directory``: a file's bytes, None for a directory."""
    return {
        str(path.relative_to(directory)): None if path.is_dir() else path.read_bytes()
        for path in sorted(directory.rglob("*"))
    }


def _session_files(sessions_dir: Path, session_id: str) -> dict[str, bytes | None]:
    return {
        name: data
        for name, data in _files(sessions_dir).items()
        if name == f"{session_id}.jsonl" or name == session_id or name.startswith(f"{session_id}/")
    }


def _entry(sessions_dir: Path, session_id: str) -> dict[str, Any] | None:
    entries = [e for e in _read_index(sessions_dir)["sessions"] if e.get("id") == session_id]
    assert len(entries) <= 1, f"sessions.json should hold at most one entry for {session_id}, got {entries!r}"
    return entries[0] if entries else None


def _make_session(synapse: Implementation, world: SesWorld, name: str) -> Any:
    session = synapse.create_session(world.sessions_dir, model=SONNET, pricing=SONNET_PRICING)
    session.append_message(
        [_text_message("user", f"会话 {name} 的问题"), _text_message("assistant", f"会话 {name} 的回答")]
    )
    offloaded = Path(session.offload_dir) / OFFLOADED
    offloaded.parent.mkdir(parents=True, exist_ok=True)
    offloaded.write_text(f"会话 {name} 卸载的内容", encoding="utf-8")
    return session


def _delete(synapse: Implementation, world: SesWorld, session_id: str) -> None:
    _call(world, lambda: synapse.delete_session(world.sessions_dir, session_id))


# --------------------------------------------------------------------------------------------------------
# Given
# --------------------------------------------------------------------------------------------------------


@given("会话 a 与会话 b 各有 2 条消息和一个卸载文件")
def del_given_two_sessions(synapse: Implementation, ses_world: SesWorld) -> None:
    sessions = {name: _make_session(synapse, ses_world, name) for name in ("a", "b")}
    ids = {name: session.id for name, session in sessions.items()}
    assert ids["a"] != ids["b"], "two created sessions should have distinct ids"
    ses_world.session = sessions["a"]
    ses_world.snapshot.update(
        ids=ids,
        files=_files(ses_world.sessions_dir),
        b_files=_session_files(ses_world.sessions_dir, ids["b"]),
        a_entry=_entry(ses_world.sessions_dir, ids["a"]),
        b_entry=_entry(ses_world.sessions_dir, ids["b"]),
    )
    for name, session_id in ids.items():
        assert (ses_world.sessions_dir / session_id / OFFLOADED).is_file(), (
            f"setting up: session {name} should have its offloaded file in {session_id}/{OFFLOADED}"
        )


@given(parsers.parse("会话 a 的{file}无法被任何进程删除"))
def del_given_undeletable(ses_world: SesWorld, request: pytest.FixtureRequest, file: str) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    relative = {"历史文件": f"{session_id}.jsonl", "卸载文件": f"{session_id}/{OFFLOADED}"}[file]
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.undeletable(ses_world.sessions_dir / relative))
    ses_world.snapshot.update(undeletable=ses_world.sessions_dir / relative, undeletable_stack=stack)


@given("会话目录不再接受新的文件，`sessions.json` 因而无法被替换")
def del_given_index_frozen(ses_world: SesWorld, request: pytest.FixtureRequest) -> None:
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.no_new_entries(ses_world.sessions_dir))
    ses_world.snapshot.update(undeletable=ses_world.sessions_dir / "sessions.json", undeletable_stack=stack)


@given(parsers.parse("索引中另有 {count:d} 个没有文件的会话条目"))
def del_given_many_entries(ses_world: SesWorld, count: int) -> None:
    index = _read_index(ses_world.sessions_dir)
    stamp = "2026-01-02T03:04:05.678Z"
    index["sessions"] += [
        {
            "id": f"session-filler-{i:06d}",
            "createdAt": stamp,
            "updatedAt": stamp,
            "messageCount": 0,
            "title": f"填充条目 {i} " + "x" * 200,
        }
        for i in range(count)
    ]
    _write_index(ses_world, index)
    ses_world.snapshot.update(files=_files(ses_world.sessions_dir), fillers=count)


@given("索引中会话 a 的条目又出现在最后，如同另一个工具把它又写了一遍")
def del_given_duplicate_entry(ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    index = _read_index(ses_world.sessions_dir)
    entry = next(e for e in index["sessions"] if e.get("id") == session_id)
    index["sessions"].append(dict(entry))
    _write_index(ses_world, index)
    ids = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    assert ids.count(session_id) == 2, f"sessions.json should list {session_id} twice, got {ids}"
    ses_world.snapshot.update(files=_files(ses_world.sessions_dir))


@given(parsers.parse("会话 a 的条目已不在索引中，只留下它的{leftover}，如同删除它的进程在改写索引后被杀死"))
def del_given_unlisted_leftovers(ses_world: SesWorld, leftover: str) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    index = _read_index(ses_world.sessions_dir)
    index["sessions"] = [e for e in index["sessions"] if e.get("id") != session_id]
    _write_index(ses_world, index)
    history, directory = ses_world.sessions_dir / f"{session_id}.jsonl", ses_world.sessions_dir / session_id
    keep_history, keep_directory = {
        "历史文件与会话目录": (True, True),
        "会话目录": (False, True),
        "历史文件": (True, False),
    }[leftover]
    if not keep_history:  # a session that never wrote its history, or whose history went first
        history.unlink()
    if not keep_directory:  # the deleting process had removed the directory already
        (directory / OFFLOADED).unlink()
        (directory / OFFLOADED).parent.rmdir()
        directory.rmdir()
    assert history.is_file() == keep_history
    assert (directory / OFFLOADED).is_file() == keep_directory
    ses_world.snapshot["b_entry"] = _entry(ses_world.sessions_dir, ses_world.snapshot["ids"]["b"])


# --------------------------------------------------------------------------------------------------------
# When
# --------------------------------------------------------------------------------------------------------


@when("按 id 删除会话 a")
@when("再按 id 删除会话 a")
def del_when_delete_a(synapse: Implementation, ses_world: SesWorld) -> None:
    _delete(synapse, ses_world, ses_world.snapshot["ids"]["a"])


@when("按 id 删除会话 a，id 写成全大写")
def del_when_delete_a_upper(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    assert session_id.upper() != session_id, f"the id {session_id!r} should have letters to change"
    _delete(synapse, ses_world, session_id.upper())


@when(parsers.re(r'^按 id 删除会话 (?P<quoted>".*")$'))
def del_when_delete_id(synapse: Implementation, ses_world: SesWorld, quoted: str) -> None:
    _delete(synapse, ses_world, json.loads(quoted))


@when(parsers.re(r'^记录 INFO 及以上日志时按 id 删除会话 (?P<target>a|".*")$'))
def del_when_delete_logged(
    synapse: Implementation, ses_world: SesWorld, caplog: pytest.LogCaptureFixture, target: str
) -> None:
    caplog.set_level(logging.INFO, logger="synapse")
    caplog.clear()
    _delete(synapse, ses_world, ses_world.snapshot["ids"]["a"] if target == "a" else json.loads(target))


def _info_records(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The INFO records' texts, structured data included (``probes.logged_text``): an implementation may
    name the id in its message or log it as a field."""
    return [probes.logged_text(r) for r in probes.implementation_records(caplog.records, logging.INFO)]


@then('`synapse.*` 日志不应有含会话 a 或 "session-m6x3k2a1-absent" 的 INFO 记录')
def del_then_no_delete_log(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    named = [
        m for m in _info_records(caplog) if ses_world.snapshot["ids"]["a"] in m or "m6x3k2a1-absent" in m
    ]
    assert not named, f"deleting an id that is not there should log no deletion, logged {named!r}"


@then("`synapse.*` 日志应恰有一条含会话 a 的 id 的 INFO 记录，且不含会话 b 的 id")
def del_then_delete_logged(ses_world: SesWorld, caplog: pytest.LogCaptureFixture) -> None:
    ids = ses_world.snapshot["ids"]
    records = _info_records(caplog)
    named = [m for m in records if ids["a"] in m]
    assert len(named) == 1, (
        f"deleting session a should log one INFO record naming {ids['a']!r}, as the original's "
        f"`Deleted session: <id>`; INFO records: {records!r}"
    )
    assert ids["b"] not in named[0], f"the record should name only the deleted session, got {named[0]!r}"


@when("按 id 删除最后创建的那个会话")
def del_when_delete_newest(synapse: Implementation, ses_world: SesWorld) -> None:
    _delete(synapse, ses_world, ses_world.snapshot["older_ids"][-1])


@when("通过会话 a 的对象调用 `session.delete()`")
@when("再通过删除前得到的会话 a 的对象调用 `session.delete()`")
def del_when_object_delete(synapse: Implementation, ses_world: SesWorld) -> None:
    probes.uses_capability(synapse, DELETE)
    ses_world.session.delete()


@when("在实现进程可写的文件大小上限比当前索引小 1 字节时按 id 删除会话 a")
def del_when_delete_a_index_too_big(synapse: Implementation, ses_world: SesWorld) -> None:
    limit = (ses_world.sessions_dir / "sessions.json").stat().st_size - 1
    with probes.resource_limit(synapse, probes.RLIMIT_FSIZE, limit):
        _delete(synapse, ses_world, ses_world.snapshot["ids"]["a"])


@then("会话 a 若已不在索引中，错误消息应说明其索引条目无法放回的原因")
def del_then_error_says_entry_lost(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    if synapse.find_session(session_id, ses_world.sessions_dir) is not None:
        return  # put back: the session stays listed, as when only the file failed
    text = str(ses_world.error).lower()
    causes = (os.strerror(errno.EFBIG).lower(), "efbig")
    assert any(cause in text for cause in causes), (
        f"session {session_id} is no longer listed; the error should say its entry could not be put back "
        f"and why ({' or '.join(causes)}), got {text!r}"
    )


@when("该文件恢复可删除后再按 id 删除会话 a")
def del_when_deletable_again(synapse: Implementation, ses_world: SesWorld) -> None:
    ses_world.snapshot["undeletable_stack"].close()
    ses_world.error = None
    _delete(synapse, ses_world, ses_world.snapshot["ids"]["a"])


@when(
    parsers.parse(
        "{procs:d} 个进程同时各创建 {each:d} 个会话并各追加一条消息，随后各删除自己创建的其中 {deleted:d} 个"
    )
)
def del_when_parallel(
    synapse: Implementation, ses_world: SesWorld, procs: int, each: int, deleted: int
) -> None:
    probes.uses_capability(synapse, DELETE)  # the other processes use it out of the scenario's sight
    sessions_dir = ses_world.sessions_dir

    def work(impl: Implementation) -> tuple[list[str], list[str]]:
        created = []
        for i in range(each):
            session = impl.create_session(sessions_dir, model=SONNET, pricing=SONNET_PRICING)
            session.append_message(_text_message("user", f"第 {i} 个"))
            created.append(session.id)
        gone = created[::2][:deleted]
        for session_id in gone:
            assert impl.delete_session(sessions_dir, session_id) is True, f"deleting {session_id} failed"
        return [s for s in created if s not in gone], gone

    results = probes.in_parallel_processes(synapse, procs, work)
    kept = {session_id for batch, _ in results for session_id in batch}
    gone = {session_id for _, batch in results for session_id in batch}
    assert len(kept) == procs * (each - deleted) and len(gone) == procs * deleted, (
        f"setting up: expected {procs * (each - deleted)} kept and {procs * deleted} deleted sessions"
    )
    ses_world.snapshot.update(kept=kept, gone=gone)


@when("另一个进程在删除会话 a 的中途被杀死")
def del_when_delete_killed(synapse: Implementation, ses_world: SesWorld) -> None:
    probes.uses_capability(synapse, DELETE)  # the other process uses it out of the scenario's sight
    session_id, sessions_dir = ses_world.snapshot["ids"]["a"], ses_world.sessions_dir

    def delete(other: Implementation) -> None:
        other.delete_session(sessions_dir, session_id)

    probes.killed_while_writing(synapse, sessions_dir, delete)


# --------------------------------------------------------------------------------------------------------
# Then
# --------------------------------------------------------------------------------------------------------


@then(parsers.parse("删除结果应为 {expected}"))
def del_then_result(ses_world: SesWorld, expected: str) -> None:
    assert ses_world.error is None, f"deleting the session raised {ses_world.error!r}"
    want = {"True": True, "False": False}[expected]
    assert ses_world.result is want, f"deleting the session should return {want}, got {ses_world.result!r}"


@then("会话 a 的历史文件、会话目录与索引条目都应不复存在，`Session.find()` 找不到它")
def del_then_a_gone(synapse: Implementation, ses_world: SesWorld) -> None:
    assert ses_world.error is None, f"deleting the session raised {ses_world.error!r}"
    session_id = ses_world.snapshot["ids"]["a"]
    left = _session_files(ses_world.sessions_dir, session_id)
    assert not left, f"deleting session {session_id} should remove its files, left: {sorted(left)}"
    assert _entry(ses_world.sessions_dir, session_id) is None, (
        f"deleting session {session_id} should remove its entry from sessions.json"
    )
    assert synapse.find_session(session_id, ses_world.sessions_dir) is None, (
        f"Session.find({session_id!r}) should find nothing after the session was deleted"
    )


@then("会话 b 的文件与索引条目应与删除前完全相同")
def del_then_b_untouched(ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["b"]
    now = _session_files(ses_world.sessions_dir, session_id)
    assert now == ses_world.snapshot["b_files"], (
        f"deleting another session must leave session b's files as they were: "
        f"before {sorted(ses_world.snapshot['b_files'])}, now {sorted(now)} (or their bytes changed)"
    )
    assert _entry(ses_world.sessions_dir, session_id) == ses_world.snapshot["b_entry"], (
        "deleting another session must leave session b's index entry as it was"
    )


@then("会话目录中原有的每个文件都应还在且内容不变")
def del_then_nothing_changed(ses_world: SesWorld) -> None:
    before: dict[str, bytes | None] = ses_world.snapshot["files"]
    now = _files(ses_world.sessions_dir)
    changed = sorted(name for name, data in before.items() if now.get(name, b"\0missing") != data)
    assert not changed, f"deleting an unknown session must change no file, changed or removed: {changed}"


@then("`Session.list()` 应为空")
def del_then_list_empty(synapse: Implementation, ses_world: SesWorld) -> None:
    listed = synapse.list_sessions(ses_world.sessions_dir)
    assert listed == [], f"the deleted entry should be gone from Session.list(), got {listed!r}"


@then(parsers.parse('应抛出消息含 "{text}" 与该文件路径的错误'))
def del_then_error_names_file(ses_world: SesWorld, text: str) -> None:
    error = ses_world.error
    assert error is not None, (
        f"deleting a session whose file cannot be removed should raise, got {ses_world.result!r}"
    )
    path = str(ses_world.snapshot["undeletable"])
    assert text in str(error) and path in str(error), (
        f"the error should say {text!r} and name the file that could not be removed ({path}), "
        f"got {type(error).__name__}: {error}"
    )


@then("错误消息应说明该文件无法删除的原因")
def del_then_error_gives_reason(ses_world: SesWorld) -> None:
    text = str(ses_world.error).lower()
    # An immutable file refuses with EPERM, a mount point with EBUSY: the C library's text or the errno name.
    reasons = [os.strerror(code).lower() for code in (errno.EPERM, errno.EBUSY)] + ["eperm", "ebusy"]
    assert any(reason in text for reason in reasons), (
        f"the error should say why the file could not be removed ({' or '.join(reasons)}), got {text!r}"
    )


@then("会话 a 的索引条目应与删除前相同，`Session.find()` 恢复的会话仍有 2 条消息")
def del_then_entry_kept(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    assert _entry(ses_world.sessions_dir, session_id) == ses_world.snapshot["a_entry"], (
        "a deletion that failed must leave the session's index entry as it was, so nothing is unlisted"
    )
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    assert found is not None, f"Session.find({session_id!r}) should still find the session"
    history = found.load_history()
    assert (len(history), found.message_count) == (2, 2), (
        "a deletion that failed must keep the conversation (the history goes last): "
        f"expected 2 messages, loaded {len(history)} with messageCount {found.message_count}"
    )


@then(parsers.parse("`sessions.json` 应恰好列出未被删除的 {count:d} 个会话，被删除的会话没有留下任何文件"))
def del_then_parallel_outcome(synapse: Implementation, ses_world: SesWorld, count: int) -> None:
    kept: set[str] = ses_world.snapshot["kept"]
    gone: set[str] = ses_world.snapshot["gone"]
    listed = [e.get("id") for e in _read_index(ses_world.sessions_dir)["sessions"]]
    lost, resurrected = kept - set(listed), gone & set(listed)
    assert not lost and not resurrected and len(listed) == count, (
        f"sessions.json should list exactly the {count} sessions not deleted: {len(lost)} lost "
        f"({sorted(lost)[:3]}...), {len(resurrected)} deleted but listed, {len(listed)} entries in all"
    )
    for session_id in kept:
        assert (ses_world.sessions_dir / f"{session_id}.jsonl").is_file(), f"{session_id}.jsonl was removed"
    left = {name for session_id in gone for name in _session_files(ses_world.sessions_dir, session_id)}
    assert not left, f"deleted sessions should leave no file, left: {sorted(left)[:5]}"
    listed_counts = {
        e.get("id"): e.get("messageCount") for e in synapse.list_sessions(ses_world.sessions_dir)
    }
    wrong = {s: c for s, c in listed_counts.items() if c != 1}
    assert not wrong, f"every kept session should count its one message, got {wrong}"


@then("若索引仍列出会话 a，`Session.find()` 恢复的会话应完整：2 条消息，卸载文件还在")
def del_then_listed_means_whole(synapse: Implementation, ses_world: SesWorld) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    if _entry(ses_world.sessions_dir, session_id) is None:
        return  # the entry went first: the session is gone for every reader, whatever files are left
    found = synapse.find_session(session_id, ses_world.sessions_dir)
    assert found is not None, f"sessions.json lists {session_id} but Session.find() does not find it"
    history = found.load_history()
    offloaded = ses_world.sessions_dir / session_id / OFFLOADED
    assert len(history) == 2 and found.message_count == 2 and offloaded.is_file(), (
        "a deletion killed part way left an index entry for a half-deleted session: "
        f"{len(history)} messages loaded (messageCount {found.message_count}) instead of 2, "
        f"offloaded file {'present' if offloaded.is_file() else 'gone'}"
    )


@then(parsers.parse("会话目录中不应留下临时文件，其余 {count:d} 个条目都还在"))
def del_then_no_temp_left(ses_world: SesWorld, count: int) -> None:
    session_id = ses_world.snapshot["ids"]["a"]
    before = {
        name
        for name in ses_world.snapshot["files"]
        if name != f"{session_id}.jsonl" and name != session_id and not name.startswith(f"{session_id}/")
    }
    now = set(_files(ses_world.sessions_dir))
    assert now == before, (
        f"after deleting again, the sessions directory should hold what it held before minus session a: "
        f"new {sorted(now - before)}, gone {sorted(before - now)}"
    )
    listed = _read_index(ses_world.sessions_dir)["sessions"]
    assert len(listed) == count, f"sessions.json should keep the other {count} entries, got {len(listed)}"


@then(parsers.parse('`Session.continue()` 应恢复最早创建的那个会话，标题为 "{title}"'))
def del_then_continue_older(synapse: Implementation, ses_world: SesWorld, title: str) -> None:
    oldest = ses_world.snapshot["older_ids"][0]
    session = synapse.continue_session(ses_world.sessions_dir)
    assert session is not None and (session.id, session.title) == (oldest, title), (
        f"after deleting the newest session Session.continue() should resume {oldest} titled {title!r}, "
        f"got {session!r}"
    )
    history = _history_messages(ses_world.sessions_dir / f"{oldest}.jsonl")
    assert len(session.load_history()) == len(history) == 1, "the resumed session should keep its history"


@then("会话目录及其上级目录都应仍不存在")
def del_then_sessions_dir_still_missing(ses_world: SesWorld) -> None:
    parent = ses_world.sessions_dir.parent
    assert not parent.exists(), (
        f"deleting from a missing sessions directory must create nothing, found {parent}"
    )
