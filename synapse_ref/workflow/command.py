"""The SubagentStop hook as a command: JSON event on stdin, ``{"result": "..."}`` on stdout, exit 0.

Whatever goes wrong (empty or invalid input, a session without workflow, a damaged state file), the
main agent gets a valid empty result and the reason goes to stderr, so a broken hook never blocks Claude
Code and never prints a traceback into its conversation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from synapse_ref.js_text import json_parse, trim
from synapse_ref.workflow.on_stop import SubagentStopHook
from synapse_ref.workflow.paths import WorkflowPaths
from synapse_ref.workflow.state import WorkflowStore
from synapse_ref.workflow.timeline import Clock, Timeline

PROG = "synapse-on-stop"


@dataclass(frozen=True)
class CommandOutcome:
    stdout: str
    stderr: str
    exit_code: int


def _printable(text: str) -> str:
    """``text`` without lone surrogates (a ``\\ud800`` escape in the input can put one in a notice),
    which no UTF-8 stream can carry."""
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _answer(result: str, notices: list[str]) -> CommandOutcome:
    stdout = json.dumps({"result": _printable(result)}, ensure_ascii=False) + "\n"
    stderr = "".join(f"{PROG}: {_printable(notice)}\n" for notice in notices)
    return CommandOutcome(stdout, stderr, 0)


def run_on_stop(stdin: str, *, root: Path | str, clock: Clock) -> CommandOutcome:
    """Run the hook on the raw stdin text, with every file below ``root``."""
    if not trim(stdin):
        return _answer("", ["empty input: expected the SubagentStop event as JSON on stdin"])
    try:
        event = json_parse(stdin)  # as JSON.parse: NaN or Infinity anywhere makes the input no JSON
    except json.JSONDecodeError as exc:
        return _answer("", [f"invalid JSON on stdin: {exc}"])
    except (ValueError, RecursionError) as exc:  # a number past the digit limit, nesting past the stack
        return _answer("", [f"unreadable JSON on stdin: {type(exc).__name__}: {str(exc)[:200]}"])
    if not isinstance(event, dict):
        return _answer("", [f"expected a JSON object on stdin, got {type(event).__name__}"])
    try:
        paths = WorkflowPaths(root)
        hook = SubagentStopHook(WorkflowStore(paths, clock), Timeline(paths, clock))
        outcome = hook.handle(event)
    except Exception as exc:  # the hook must answer whatever happens
        return _answer("", [f"hook failed: {exc!r}"])
    return _answer(outcome.result, list(outcome.notices))
