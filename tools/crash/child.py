"""The process that gets killed: it repeats one session write and reports each one that returned.

``tools.crash`` forks it from the parent, which has imported the implementation already, so a trial
costs a fork instead of an interpreter start.  It writes ``READY`` once the session is open, then
``ACK <n>`` after each write that returned, each with one unbuffered ``write`` on the pipe so that a
report sent is a report received.  It never stops by itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

from synapse_spec.contract import Implementation
from tools.crash.workload import message, rewrite_messages, usage_round


def run(
    synapse: Implementation, path: str, sessions_dir: Path, session_id: str, trial: int, report_fd: int
) -> NoReturn:
    """Open (or create) the session and repeat the write of ``path`` until killed."""
    try:
        session = synapse.find_session(session_id, sessions_dir)
        if session is None:
            session = synapse.create_session(sessions_dir, session_id=session_id, model="crash-model")
        os.write(report_fd, b"READY\n")
        n = 0
        while True:
            n += 1
            if path == "append":
                session.append_message(message(trial, n))
            elif path == "rewrite":
                session.rewrite_history(rewrite_messages(trial, n))
            else:
                session.update_usage(usage_round())
            os.write(report_fd, f"ACK {n}\n".encode())
    except BaseException as exc:
        os.write(report_fd, f"ERROR {exc!r}\n".encode())
    finally:
        os._exit(70)
