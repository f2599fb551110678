"""One session written by several processes (and several objects) at once: every count and total exact."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from synapse_ref.session.session import Session

PROCESSES = 4
APPENDS = 60
ROUND = {"inputOther": 3, "output": 2, "inputCacheRead": 1, "inputCacheCreation": 0}
PRICING = {
    "m": {
        "inputPerMillion": 1.0,
        "outputPerMillion": 2.0,
        "cacheReadPerMillion": 0.5,
        "cacheWritePerMillion": 0.0,
    }
}


def _worker(sessions_dir: str, session_id: str, number: int, barrier: Any, results: Any) -> None:
    try:
        session = Session.find(session_id, Path(sessions_dir), pricing=PRICING)
        assert session is not None
        barrier.wait(timeout=60)
        for i in range(APPENDS):
            if i % 3 == 0:
                session.append_message([_message(number, i), _message(number, i + 1000)])
            else:
                session.append_message(_message(number, i))
            if i % 5 == 0:
                session.update_usage(ROUND)
        results.put(("ok", number))
    except BaseException as exc:
        results.put(("error", repr(exc)))


def _message(number: int, i: int) -> dict[str, Any]:
    return {
        "role": "user" if i % 2 else "assistant",
        "content": [{"type": "text", "text": f"p{number} m{i}"}],
    }


def _expected_messages_per_process() -> int:
    return sum(2 if i % 3 == 0 else 1 for i in range(APPENDS))


def _rounds_per_process() -> int:
    return sum(1 for i in range(APPENDS) if i % 5 == 0)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_processes_appending_and_recording_usage_lose_nothing(tmp_path: Path, method: str) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    session = Session.create(tmp_path, model="m", pricing=PRICING)
    session.append_message(_message(99, 0))
    context: Any = multiprocessing.get_context(method)
    barrier = context.Barrier(PROCESSES)
    results: Any = context.Queue()
    workers = [
        context.Process(target=_worker, args=(str(tmp_path), session.id, n, barrier, results))
        for n in range(PROCESSES)
    ]
    for process in workers:
        process.start()
    outcomes = [results.get(timeout=240) for _ in workers]
    for process in workers:
        process.join(timeout=60)
    assert all(status == "ok" for status, _ in outcomes), outcomes

    messages = 1 + PROCESSES * _expected_messages_per_process()
    rounds = PROCESSES * _rounds_per_process()
    history = session.load_history()
    assert len(history) == messages
    for n in range(PROCESSES):  # each process's messages in its own order
        texts = [m["content"][0]["text"] for m in history if m["content"][0]["text"].startswith(f"p{n} ")]
        assert len(texts) == _expected_messages_per_process()
    found = Session.find(session.id, tmp_path)
    assert found is not None and found.message_count == messages
    (entry,) = Session.list(tmp_path)
    assert entry["messageCount"] == messages
    usage = found.get_usage()
    assert usage["totalInputOther"] == 3 * rounds and usage["totalOutput"] == 2 * rounds
    assert usage["totalCacheRead"] == rounds
    assert usage["totalCost"] == pytest.approx(rounds * (3 * 1.0 + 2 * 2.0 + 1 * 0.5) / 1_000_000)
    assert not [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_two_objects_of_one_session_keep_each_others_usage_and_counts(tmp_path: Path) -> None:
    created = Session.create(tmp_path, model="m", pricing=PRICING)
    a = Session.find(created.id, tmp_path, pricing=PRICING)
    b = Session.find(created.id, tmp_path, pricing=PRICING)
    assert a is not None and b is not None
    a.update_usage({"inputOther": 100})
    b.update_usage({"inputOther": 7})
    a.append_message([_message(1, i) for i in range(3)])
    b.append_message(_message(2, 0))
    a.append_message(_message(1, 3))
    found = Session.find(created.id, tmp_path)
    assert found is not None
    assert found.get_usage()["totalInputOther"] == 107
    assert found.message_count == 5 == len(found.load_history())
    assert Session.list(tmp_path)[0]["messageCount"] == 5
    b.rewrite_history([_message(3, 0)])
    a.append_message(_message(1, 4))
    assert Session.list(tmp_path)[0]["messageCount"] == 2 == len(a.load_history())


def test_a_rewrite_cut_off_before_its_index_update_is_recounted(tmp_path: Path) -> None:
    session = Session.create(tmp_path, pricing={})
    session.append_message([_message(1, i) for i in range(10)])
    # What a rewrite killed between the rename and the index update leaves: a new, longer file under
    # the old name and the old entry.
    replacement = tmp_path / "replacement"
    replacement.write_text("".join(f'{{"role": "user", "content": "rewritten {i}"}}\n' for i in range(30)))
    os.replace(replacement, session.history_path)
    (entry,) = Session.list(tmp_path)
    assert entry["messageCount"] == 30
    found = Session.find(session.id, tmp_path)
    assert found is not None and found.message_count == 30
