"""``python -m synapse_ref.workflow``: the SubagentStop hook command (see ``command.py``)."""

from __future__ import annotations

import logging
import sys

from synapse_ref.workflow.command import run_on_stop


def main() -> int:
    # Notices already reach stderr once, as plain lines; logging's last-resort handler would repeat them.
    logging.getLogger("synapse").addHandler(logging.NullHandler())
    outcome = run_on_stop(sys.stdin.buffer.read().decode("utf-8", errors="replace"))
    sys.stdout.buffer.write(outcome.stdout.encode("utf-8"))
    sys.stdout.flush()
    if outcome.stderr:
        sys.stderr.buffer.write(outcome.stderr.encode("utf-8"))
        sys.stderr.flush()
    return outcome.exit_code


if __name__ == "__main__":
    sys.exit(main())
