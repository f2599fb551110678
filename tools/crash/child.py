"""The process that gets killed: it repeats one session write and reports each one that returned.

Run by ``tools.crash`` as ``python -m tools.crash.child PATH SESSIONS_DIR SESSION_ID TRIAL IMPL``; it
prints ``READY`` once the session is open, then ``ACK <n>`` after each write that returned, with one
unbuffered ``write`` so that a report sent is a report received.  It never stops by itself.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tools.crash.workload import load_implementation, message, rewrite_messages, usage_round


def _report(line: str) -> None:
    os.write(1, f"{line}\n".encode())


def main(argv: list[str]) -> None:
    path, sessions_dir, session_id, trial, impl = argv
    synapse = load_implementation(impl)()
    session = synapse.find_session(session_id, Path(sessions_dir))
    if session is None:
        session = synapse.create_session(Path(sessions_dir), session_id=session_id, model="crash-model")
    _report("READY")
    n = 0
    while True:
        n += 1
        if path == "append":
            session.append_message(message(int(trial), n))
        elif path == "rewrite":
            session.rewrite_history(rewrite_messages(int(trial), n))
        else:
            session.update_usage(usage_round())
        _report(f"ACK {n}")


if __name__ == "__main__":
    main(sys.argv[1:])
