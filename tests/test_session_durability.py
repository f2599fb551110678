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
from synapse_ref.session import durability, persistence
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


MOUNTINFO = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resv_strict
40 27 254:0 /srv /mnt/bound rw,relatime shared:7 - ext4 /dev/vda rw,discard,resv_strict
41 27 254:1 / /data rw,relatime - ext4 /dev/vdb rw,noauto_da_alloc
42 27 254:2 / /fast rw,relatime - ext4 /dev/vdc rw,data=writeback
43 27 254:3 / /journal rw,relatime - ext4 /dev/vdd rw,data=journal
44 27 8:1 / /x rw,relatime - xfs /dev/sda1 rw,attr2
45 27 254:4 / /nb rw,relatime - ext4 /dev/vde rw,nobarrier
"""


@pytest.mark.parametrize(
    ("major", "minor", "ordered"),
    [
        (254, 0, True),  # ext4 with its defaults, mounted twice
        (254, 3, True),  # data=journal writes the data with the rename's transaction
        (254, 1, False),  # noauto_da_alloc
        (254, 2, False),  # data=writeback
        (254, 4, False),  # no write barriers
        (0, 23, False),  # tmpfs: nothing survives a power loss anyway, a sync costs nothing
        (8, 1, False),  # xfs
        (9, 9, False),  # not listed
    ],
)
def test_only_ext4_with_ordered_data_skips_the_sync_before_a_rename(
    major: int, minor: int, ordered: bool
) -> None:
    assert durability.rename_orders_data(MOUNTINFO, os.makedev(major, minor)) is ordered


def test_a_replace_syncs_unless_the_file_system_orders_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = getattr(os, "fdatasync", os.fsync)

    def fdatasync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fdatasync", fdatasync, raising=False)
    target = tmp_path / "sessions.json"

    monkeypatch.setattr(persistence, "device_orders_renames", lambda device: False)
    persistence.atomic_write_bytes(target, b"1")
    persistence.atomic_write_bytes(target, b"2")
    assert len(synced) == 2

    monkeypatch.setattr(persistence, "device_orders_renames", lambda device: True)
    (tmp_path / "new.json").unlink(missing_ok=True)
    persistence.atomic_write_bytes(tmp_path / "new.json", b"3")  # nothing to replace: synced
    assert len(synced) == 3
    persistence.atomic_write_bytes(target, b"4")  # replaces: the file system orders it
    assert len(synced) == 3
    assert target.read_bytes() == b"4"
