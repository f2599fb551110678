"""Where the workflow files of a session live, and the atomic write they all use.

Layout (same as the original plugin, under a root of its own)::

    <root>/sessions/<sessionId>/workflow.json     workflow state
    <root>/sessions/<sessionId>/timeline.jsonl    timeline events

The root is injected (the ``synapse-on-stop`` entry point resolves ``SYNAPSE_WORKFLOW_HOME``).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

_SESSION_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


def check_session_id(session_id: str) -> str:
    """Session ids become directory names, so anything that could leave the root is refused.  The whole id
    must match, as ``/^...$/.test(id)`` matches in JavaScript: Python's ``$`` would also match before a
    final newline, and let ``abc\\n`` through."""
    if not _SESSION_ID.fullmatch(session_id):
        raise ValueError(f"invalid session id: {session_id!r}")
    return session_id


class WorkflowPaths:
    """Resolves the per-session files below one root."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def session_dir(self, session_id: str) -> Path:
        return self.root / "sessions" / check_session_id(session_id)

    def workflow_file(self, session_id: str) -> Path:
        return self.session_dir(session_id) / "workflow.json"

    def timeline_file(self, session_id: str) -> Path:
        return self.session_dir(session_id) / "timeline.jsonl"

    def active_agent_file(self, session_id: str) -> Path:
        return self.session_dir(session_id) / "active-agent.json"


def temp_prefix(path: Path) -> str:
    """Temp files of an atomic write of ``path`` are ``.<name>.<random>.tmp`` next to it."""
    return f".{path.name}."


def remove_interrupted_writes(path: Path) -> list[Path]:
    """Delete the temp files that writes of ``path`` killed before their rename left behind.

    Only call it holding the lock every writer of ``path`` takes: then no write is under way, so every
    such temp file is a leftover.  Only regular files with exactly that name pattern go (a symlink or
    directory of that name is left alone); a file that cannot be deleted is skipped."""
    removed: list[Path] = []
    prefix = temp_prefix(path)
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write through a temp file in the same directory, fsync it, then ``os.replace``: a reader sees
    the old content or the new one, never half of either.  The directory exists already (the callers
    hold a lock file in it)."""
    fd, tmp_name = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
