"""The REPL a person runs: ``python -m synapse_ref`` driven through piped stdin in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from synapse_spec import probes


def _synapse(home: Path, stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_")}
    env["HOME"] = str(home.parent)
    return subprocess.run(
        [sys.executable, "-m", "synapse_ref", "--home", str(home), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "synapse-home"


def test_help_documents_the_options() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "synapse_ref", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    shown = " ".join(result.stdout.split())
    for text in ("--home", "--resume", "offline echo model", "/compact"):
        assert text in shown, f"--help should mention {text!r}"


def test_a_conversation_is_persisted_and_restored_with_resume(home: Path) -> None:
    first = _synapse(home, "remember the blue door\n/cost\n/compact\n/exit\n")
    assert first.returncode == 0, first.stderr
    assert "offline echo model" in first.stdout, "the banner should say which model answers"
    assert "Echo: remember the blue door" in first.stdout
    assert "Token: " in first.stdout and "Cost: " in first.stdout, "/cost should print the usage line"
    assert "无需压缩" in first.stdout, "a two-message history has nothing to compact"
    assert first.stderr == "", f"nothing should be written to stderr: {first.stderr}"

    sessions = json.loads((home / "sessions" / "sessions.json").read_text(encoding="utf-8"))["sessions"]
    assert len(sessions) == 1, "one session should be recorded in the index"
    session_id = sessions[0]["id"]
    lines = (home / "sessions" / f"{session_id}.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["role"] for line in lines] == ["user", "assistant"]

    second = _synapse(home, "/exit\n", "--resume")
    assert second.returncode == 0, second.stderr
    assert f"Resumed session {session_id}" in second.stdout
    assert "user: remember the blue door" in second.stdout, "the earlier message should be restored"

    by_id = _synapse(home, "and the red one\n/exit\n", "--resume", session_id)
    assert "user: remember the blue door" in by_id.stdout
    history = (home / "sessions" / f"{session_id}.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(history) == 4, "the resumed session should continue the same history file"


def test_compact_summarises_a_longer_history(home: Path) -> None:
    script = "".join(f"message number {i}\n" for i in range(6)) + "/compact\n/exit\n"
    result = _synapse(home, script)
    assert result.returncode == 0, result.stderr
    assert "✅ 压缩完成：" in result.stdout and "→" in result.stdout, result.stdout


def test_resume_of_an_unknown_session_is_an_error_not_a_new_session(home: Path) -> None:
    result = _synapse(home, "/exit\n", "--resume", "session-does-not-exist")
    assert result.returncode == 1
    assert "Session not found: session-does-not-exist" in result.stderr
    assert "Traceback" not in result.stderr
    index = home / "sessions" / "sessions.json"
    assert not index.exists() or json.loads(index.read_text(encoding="utf-8"))["sessions"] == [], (
        "no session should be created"
    )


def _index_ids(home: Path) -> list[str]:
    index = json.loads((home / "sessions" / "sessions.json").read_text(encoding="utf-8"))
    return [str(entry["id"]) for entry in index["sessions"]]


def _saved_session(home: Path, text: str) -> str:
    """A session with one exchange and an offloaded file, saved by a REPL run that has ended."""
    before = set(_index_ids(home)) if (home / "sessions" / "sessions.json").exists() else set()
    result = _synapse(home, f"{text}\n/exit\n")
    assert result.returncode == 0, result.stderr
    (session_id,) = set(_index_ids(home)) - before
    offloaded = home / "sessions" / session_id / "offloaded" / "note.txt"
    offloaded.parent.mkdir(parents=True)
    offloaded.write_text("offloaded", encoding="utf-8")
    return session_id


def test_delete_removes_another_session_and_only_that_one(home: Path) -> None:
    doomed = _saved_session(home, "the session to delete")
    kept = _saved_session(home, "the session to keep")
    result = _synapse(home, f"/delete {doomed}\n/delete {doomed}\n/sessions\n/exit\n")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert f"Deleted session {doomed}." in result.stdout, result.stdout
    assert f"Session not found: {doomed}" in result.stdout, "deleting again should say the id is unknown"
    listing = result.stdout.split("Saved sessions (newest first):", 1)[1]
    assert doomed not in listing and kept in listing, f"/sessions should no longer list {doomed}: {listing}"
    sessions = home / "sessions"
    assert not (sessions / f"{doomed}.jsonl").exists() and not (sessions / doomed).exists(), (
        "the deleted session's history and directory should be gone"
    )
    assert doomed not in _index_ids(home)
    assert (sessions / f"{kept}.jsonl").is_file() and (sessions / kept / "offloaded" / "note.txt").is_file()


def test_delete_refuses_the_current_session(home: Path) -> None:
    current = _saved_session(home, "the current conversation")
    result = _synapse(home, f"/delete {current}\n/exit\n", "--resume", current)
    assert result.returncode == 0, result.stderr
    assert f"Cannot delete the current session {current}" in result.stdout, result.stdout
    assert (home / "sessions" / f"{current}.jsonl").is_file() and current in _index_ids(home), (
        "the current session must be kept"
    )


def test_delete_without_an_id_or_with_an_unknown_one_explains_itself(home: Path) -> None:
    kept = _saved_session(home, "a saved session")
    result = _synapse(home, "/delete\n/delete ../../etc\n/delete session-does-not-exist\n/help\n/exit\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "Usage: /delete ID" in result.stdout, result.stdout
    assert "Session not found: ../../etc" in result.stdout, result.stdout
    assert "Session not found: session-does-not-exist" in result.stdout, result.stdout
    assert "/delete ID" in result.stdout.split("Synapse Agent - Help", 1)[1], "/help should list /delete"
    assert kept in _index_ids(home) and (home / "sessions" / f"{kept}.jsonl").is_file()


def test_delete_that_cannot_remove_a_file_names_it_and_keeps_the_session(home: Path) -> None:
    stuck = _saved_session(home, "a session whose history cannot be removed")
    history = home / "sessions" / f"{stuck}.jsonl"
    with probes.undeletable(history):
        result = _synapse(home, f"/delete {stuck}\n/sessions\n/exit\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert f"Failed to delete session {stuck}: cannot remove {history}" in result.stdout, result.stdout
    assert stuck in result.stdout.split("Saved sessions (newest first):", 1)[1], "the session stays listed"
    assert stuck in _index_ids(home) and history.is_file()
    retried = _synapse(home, f"/delete {stuck}\n/exit\n")
    assert f"Deleted session {stuck}." in retried.stdout, retried.stdout
    assert not history.exists() and not (home / "sessions" / stuck).exists()


def test_an_unusable_home_is_a_clear_error(tmp_path: Path) -> None:
    not_a_directory = tmp_path / "a-file"
    not_a_directory.write_text("x", encoding="utf-8")
    result = _synapse(not_a_directory, "/exit\n")
    assert result.returncode == 1
    assert result.stderr.startswith(f"synapse: cannot use the Synapse home {not_a_directory}"), result.stderr
    assert "Traceback" not in result.stderr


def test_version_is_printed() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "synapse_ref", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip().startswith("synapse ")


def test_the_repl_leaves_the_applications_log_handlers_working(tmp_path: Path) -> None:
    """Run in process: afterwards, records of ``synapse`` loggers still reach the root's handlers."""
    import io
    import logging

    from synapse_ref.repl.app import main

    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    root = logging.getLogger()
    keep = Keep(level=logging.WARNING)
    root.addHandler(keep)
    try:
        assert (
            main(["--home", str(tmp_path / "home")], stdin=io.StringIO("/exit\n"), stdout=io.StringIO()) == 0
        )
        logging.getLogger("synapse.embedded").warning("after the REPL")
    finally:
        root.removeHandler(keep)
    assert [r.getMessage() for r in seen] == ["after the REPL"]
    synapse_logger = logging.getLogger("synapse")
    assert synapse_logger.propagate and not synapse_logger.handlers, "the REPL's file handler is gone"
