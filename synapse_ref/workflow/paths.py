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

_SESSION_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")


def check_session_id(session_id: str) -> str:
    """Session ids become directory names, so anything that could leave the root is refused."""
    if not _SESSION_ID.match(session_id):
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


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write through a temp file in the same directory, fsync it, then ``os.replace``: a reader sees
    the old content or the new one, never half of either.  The directory exists already (the callers
    hold a lock file in it)."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
