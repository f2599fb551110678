"""``python -m synapse_ref.workflow``: the SubagentStop hook command (see ``command.py``).

The entry point supplies what the library takes injected: the root (``SYNAPSE_WORKFLOW_HOME``, read
when the hook runs, else ``~/.synapse/workflow``) and the system clock.
"""

from __future__ import annotations

import logging
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TextIO

from synapse_ref.workflow.command import PROG, CommandOutcome, run_on_stop

WORKFLOW_HOME_ENV = "SYNAPSE_WORKFLOW_HOME"


def default_root() -> Path:
    configured = os.environ.get(WORKFLOW_HOME_ENV, "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".synapse" / "workflow"


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


def main() -> int:
    """Always prints ``{"result": ...}`` and returns 0: Claude Code shows a failing hook's traceback
    in the conversation, so even an unexpected error is only a notice on stderr."""
    # Notices already reach stderr once, as plain lines; logging's last-resort handler would repeat them.
    logging.getLogger("synapse").addHandler(logging.NullHandler())
    try:
        stdin = sys.stdin.buffer.read().decode("utf-8", errors="replace")
        outcome = run_on_stop(stdin, root=default_root(), clock=system_clock)
    except Exception as exc:
        outcome = CommandOutcome('{"result": ""}\n', f"{PROG}: hook failed: {exc!r}\n", 0)
    _write(sys.stdout, outcome.stdout)
    if outcome.stderr:
        _write(sys.stderr, outcome.stderr)
    return 0


def _write(stream: TextIO, text: str) -> None:
    try:
        stream.buffer.write(text.encode("utf-8", errors="replace"))
        stream.flush()
    except OSError:  # the reader went away; there is nobody left to tell
        pass


if __name__ == "__main__":
    sys.exit(main())
