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

from synapse_ref.workflow.command import run_on_stop

WORKFLOW_HOME_ENV = "SYNAPSE_WORKFLOW_HOME"


def default_root() -> Path:
    configured = os.environ.get(WORKFLOW_HOME_ENV, "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".synapse" / "workflow"


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


def main() -> int:
    # Notices already reach stderr once, as plain lines; logging's last-resort handler would repeat them.
    logging.getLogger("synapse").addHandler(logging.NullHandler())
    stdin = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    outcome = run_on_stop(stdin, root=default_root(), clock=system_clock)
    sys.stdout.buffer.write(outcome.stdout.encode("utf-8"))
    sys.stdout.flush()
    if outcome.stderr:
        sys.stderr.buffer.write(outcome.stderr.encode("utf-8"))
        sys.stderr.flush()
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main())
