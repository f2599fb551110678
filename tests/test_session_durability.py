"""The order of a rewrite's writes: the offloaded files it may point at are synced before the history.

A power loss cannot be staged in a test; what is checked is the order of the calls that make data
durable (``os.sync`` for the offloaded files, the history's atomic replace, which syncs its temporary
file before renaming it), and that a rewrite with nothing new offloaded pays no sync.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from synapse_ref.context.offload_storage import OffloadStorage
from synapse_ref.session import persistence
from synapse_ref.session.session import Session, SessionHistoryError


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    recorded: list[str] = []

    def atomic_write_bytes(path: Path, data: Any) -> os.stat_result:
        recorded.append(f"replace {path.name}")
        return persistence.atomic_write_bytes(path, data)

    monkeypatch.setattr(os, "sync", lambda: recorded.append("sync"))
    monkeypatch.setattr("synapse_ref.session.session.atomic_write_bytes", atomic_write_bytes)
    return recorded


def _history(reference: str) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "read the file"},
        {"role": "tool", "content": [{"type": "text", "text": f"Tool result is at: {reference}"}]},
    ]


def test_offloaded_files_are_synced_before_the_history_that_points_at_them(
    tmp_path: Path, calls: list[str]
) -> None:
    session = Session.create(tmp_path / "sessions", session_id="s1")
    saved = OffloadStorage(session.offload_dir).save("a long tool result " * 10)

    session.rewrite_history(_history(saved))

    assert calls == ["sync", "replace s1.jsonl"]
    assert session.load_history() == _history(saved)


def test_a_rewrite_with_nothing_new_offloaded_pays_no_sync(tmp_path: Path, calls: list[str]) -> None:
    session = Session.create(tmp_path / "sessions", session_id="s1")
    session.rewrite_history(_history("none"))  # no offloaded directory at all
    assert calls == ["replace s1.jsonl"]
    storage = OffloadStorage(session.offload_dir)
    first = storage.save("first result " * 10)
    session.rewrite_history(_history(first))
    assert calls[1:] == ["sync", "replace s1.jsonl"]
    calls.clear()

    # The directory last changed well before that sync (beyond any lag of file system timestamps).
    long_ago = time.time_ns() - 60 * 10**9
    os.utime(storage.offloaded_dir, ns=(long_ago, long_ago))
    session.rewrite_history(_history(first))
    assert calls == ["replace s1.jsonl"]

    second = storage.save("second result " * 10)  # changes the directory now
    session.rewrite_history(_history(second))
    assert calls == ["replace s1.jsonl", "sync", "replace s1.jsonl"]


def test_a_failed_sync_leaves_the_history_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.create(tmp_path / "sessions", session_id="s1")
    session.rewrite_history(_history("old"))
    before = session.history_path.read_bytes()
    OffloadStorage(session.offload_dir).save("a long tool result " * 10)

    def failing_sync() -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "sync", failing_sync)
    with pytest.raises(SessionHistoryError):
        session.rewrite_history(_history("new"))
    assert session.history_path.read_bytes() == before
