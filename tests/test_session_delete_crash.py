"""A deletion killed at each of its steps: no index entry ever lists a half-deleted session, and deleting
the id again removes whatever the killed process left (the reference's order, see ``delete_by_id``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from synapse_ref.session import session as session_module
from synapse_ref.session.index import SessionIndex
from synapse_ref.session.session import Session

OFFLOADED = Path("offloaded") / "note.txt"


def _saved(sessions_dir: Path, text: str) -> Session:
    session = Session.create(sessions_dir, model="m")
    session.append_message(
        [
            {"role": "user", "content": [{"type": "text", "text": text}]},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
        ]
    )
    (session.offload_dir / OFFLOADED).parent.mkdir(parents=True)
    (session.offload_dir / OFFLOADED).write_text("offloaded", encoding="utf-8")
    return session


def _killed_after(name: str) -> Callable[..., Any]:
    """``name`` of the session module, wrapped to kill the process with SIGKILL once it returns."""
    real = getattr(session_module, name)

    def then_die(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)

    return then_die


def _delete_killed(sessions_dir: Path, session_id: str, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    pid = os.fork()
    if pid == 0:  # the child deletes and dies after ``step``; the parent looks at what is left
        try:
            if step == "index":
                real_remove = SessionIndex.remove

                def remove_then_die(self: Any, sid: str) -> Any:
                    real_remove(self, sid)
                    os.kill(os.getpid(), signal.SIGKILL)

                monkeypatch.setattr(SessionIndex, "remove", remove_then_die)
            else:
                monkeypatch.setattr(session_module, step, _killed_after(step))
            Session.delete_by_id(sessions_dir, session_id)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the child should die mid-delete"


@pytest.mark.parametrize("step", ["index", "_remove_tree"])
def test_a_deletion_killed_after_a_step_leaves_no_entry_for_a_partial_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    sessions_dir = tmp_path / "sessions"
    doomed, kept = _saved(sessions_dir, "doomed"), _saved(sessions_dir, "kept")
    _delete_killed(sessions_dir, doomed.id, monkeypatch, step)

    listed = [entry["id"] for entry in Session.list(sessions_dir)]
    assert listed == [kept.id], f"the killed deletion had removed the entry already: {listed}"
    assert Session.find(doomed.id, sessions_dir) is None
    assert (sessions_dir / f"{doomed.id}.jsonl").is_file(), "the history goes last: it is still there"

    assert Session.delete_by_id(sessions_dir, doomed.id) is True, "deleting again finds the leftovers"
    assert not (sessions_dir / f"{doomed.id}.jsonl").exists() and not (sessions_dir / doomed.id).exists()
    assert Session.delete_by_id(sessions_dir, doomed.id) is False, "and then nothing is left of it"
    found = Session.find(kept.id, sessions_dir)
    assert found is not None and len(found.load_history()) == 2
    assert (found.offload_dir / OFFLOADED).is_file()


def test_a_failed_removal_puts_the_entry_back_at_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions_dir = tmp_path / "sessions"
    ids = [_saved(sessions_dir, f"session {i}").id for i in range(3)]
    middle = ids[1]

    def refuse(directory: Path) -> None:
        raise OSError(13, "Permission denied", str(directory / OFFLOADED))

    monkeypatch.setattr(session_module, "_remove_tree", refuse)
    with pytest.raises(
        session_module.SessionDeleteError, match=f"cannot remove {sessions_dir / middle / OFFLOADED}"
    ):
        Session.delete_by_id(sessions_dir, middle)
    assert [entry["id"] for entry in Session.list(sessions_dir)] == list(reversed(ids)), (
        "same entries, same order"
    )
    assert (sessions_dir / f"{middle}.jsonl").is_file(), "the history goes last: a failure keeps it"


def test_deleting_in_a_directory_that_does_not_exist_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir" / "sessions"
    assert Session.delete_by_id(missing, "session-x") is False
    assert not (tmp_path / "no-such-dir").exists()


def test_a_symbolic_link_in_place_of_the_directory_is_removed_not_followed(tmp_path: Path) -> None:
    sessions_dir = tmp_path / "sessions"
    session = _saved(sessions_dir, "linked")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep", encoding="utf-8")
    for item in sorted(session.offload_dir.rglob("*"), reverse=True):
        item.unlink() if item.is_file() else item.rmdir()
    session.offload_dir.rmdir()
    session.offload_dir.symlink_to(outside, target_is_directory=True)
    assert Session.delete_by_id(sessions_dir, session.id) is True
    assert not session.offload_dir.is_symlink() and (outside / "precious.txt").is_file()
