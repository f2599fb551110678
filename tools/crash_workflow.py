"""``python -m tools.crash_workflow``: does a SIGKILL at any point of a workflow write lose or corrupt data?

Each trial forks a child that keeps rewriting the session's ``workflow.json`` (``WorkflowStore.update``)
and appending to its ``timeline.jsonl`` (``Timeline.emit``; the log starts full at a small
``SYNAPSE_TIMELINE_MAX_LINES``, so every append is followed by the atomic trim rewrite), telling the
parent through a pipe after each call returns; the parent kills it with SIGKILL after a random delay.
It then counts, per trial:

- corrupt files: ``workflow.json`` that is not a workflow state, a timeline line that is not an event,
  or a gap in the timeline's sequence numbers;
- acknowledged writes lost: a state update or timeline event the child was told had been written, but
  that is not on disk;
- leftovers: temp files ``.<name>.*.tmp`` still there after the next write (the one the parent makes
  once the child is dead); those seen right after the kill are reported too.

Examples::

    python -m tools.crash_workflow                      # a quick run
    python -m tools.crash_workflow --trials 1000 --seed 7

The exit code is 1 when any corrupt file, lost write or leftover is found.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from synapse_ref.workflow.paths import WorkflowPaths
from synapse_ref.workflow.state import WorkflowState, WorkflowStore
from synapse_ref.workflow.timeline import MAX_LINES_ENV, Timeline

SESSION = "crash-session"
EVENT_TYPE = "system:warning"
TIMELINE_MAX_LINES = 12


@dataclass
class Findings:
    """Totals over all trials; a trial may add to several counters."""

    trials: int = 0
    killed_while_writing: int = 0
    acknowledged_state_writes: int = 0
    acknowledged_events: int = 0
    corrupt_state: int = 0
    corrupt_timeline: int = 0
    lost_state_writes: int = 0
    lost_events: int = 0
    leftovers_after_kill: int = 0
    leftovers_after_next_write: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(
            self.corrupt_state
            or self.corrupt_timeline
            or self.lost_state_writes
            or self.lost_events
            or self.leftovers_after_next_write
        )


def _clock() -> datetime:
    return datetime.now(timezone.utc)


def _stores(root: Path) -> tuple[WorkflowStore, Timeline]:
    paths = WorkflowPaths(root)
    return WorkflowStore(paths, _clock), Timeline(paths, _clock)


def _set_mark(mark: str) -> Callable[[WorkflowState], None]:
    def mutate(state: WorkflowState) -> None:
        state["featureName"] = mark

    return mutate


def _child(root: Path, ack: int) -> None:
    """Write forever, acknowledging each completed call as ``S n`` / ``E n``; never returns."""
    store, timeline = _stores(root)
    number = 0
    while True:
        number += 1
        store.update(SESSION, _set_mark(f"crash-{number}"))
        os.write(ack, f"S {number}\n".encode())
        timeline.emit(SESSION, EVENT_TYPE, {"seq": TIMELINE_MAX_LINES + number})
        os.write(ack, f"E {TIMELINE_MAX_LINES + number}\n".encode())


def _temp_files(directory: Path) -> list[str]:
    return sorted(
        p.name
        for p in directory.iterdir()
        if p.name.endswith(".tmp") and p.name.startswith((".workflow.json.", ".timeline.jsonl."))
    )


def _acknowledged(data: bytes) -> tuple[int, int]:
    state = events = 0
    for line in data.decode("ascii").splitlines():
        kind, _, number = line.partition(" ")
        if kind == "S":
            state = int(number)
        elif kind == "E":
            events = int(number)
    return state, events


def _check_state(path: Path, acked: int, findings: Findings, trial: int) -> None:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
        mark = state["featureName"]
        written = 0 if mark is None else int(str(mark).removeprefix("crash-"))
        if not isinstance(state.get("stages"), dict):
            raise ValueError("no stages")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        findings.corrupt_state += 1
        findings.problems.append(f"trial {trial}: workflow.json is not a workflow state: {exc!r}")
        return
    if written < acked:
        findings.lost_state_writes += 1
        findings.problems.append(f"trial {trial}: state write {acked} was acknowledged, file has {written}")


def _check_timeline(path: Path, acked: int, findings: Findings, trial: int) -> None:
    numbers: list[int] = []
    try:
        raw = path.read_bytes() if path.exists() else b""
        for line in raw.decode("utf-8").splitlines():
            if line.strip():
                numbers.append(int(json.loads(line)["seq"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        findings.corrupt_timeline += 1
        findings.problems.append(f"trial {trial}: timeline.jsonl holds a line that is not an event: {exc!r}")
        return
    if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        findings.corrupt_timeline += 1
        findings.problems.append(f"trial {trial}: timeline sequence has gaps or repeats: {numbers}")
    if acked and (not numbers or numbers[-1] < acked):
        findings.lost_events += 1
        findings.problems.append(
            f"trial {trial}: event {acked} was acknowledged, timeline ends at {numbers[-1:]}"
        )


def _last_sequence(path: Path) -> int:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return int(json.loads(lines[-1])["seq"]) if lines else 0


def run_trial(trial: int, rng: random.Random, max_delay: float, findings: Findings) -> None:
    with tempfile.TemporaryDirectory(prefix="synapse-crash-") as tmp:
        root = Path(tmp)
        store, timeline = _stores(root)
        store.init(SESSION, "single")
        for number in range(1, TIMELINE_MAX_LINES + 1):  # full already: every append also trims
            timeline.emit(SESSION, EVENT_TYPE, {"seq": number})
        directory = store.path(SESSION).parent
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: no cleanup handlers, no return into the parent's code
            try:
                os.close(read_end)
                _child(root, write_end)
            finally:
                os._exit(70)
        os.close(write_end)
        time.sleep(rng.uniform(0.0, max_delay))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        chunks = []
        while chunk := os.read(read_end, 65536):
            chunks.append(chunk)
        os.close(read_end)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            findings.killed_while_writing += 1
        else:
            findings.problems.append(f"trial {trial}: the child ended on its own (status {status})")
        acked_state, acked_events = _acknowledged(b"".join(chunks))
        findings.trials += 1
        findings.acknowledged_state_writes += acked_state
        findings.acknowledged_events += max(0, acked_events - TIMELINE_MAX_LINES)
        _check_state(store.path(SESSION), acked_state, findings, trial)
        _check_timeline(timeline.path(SESSION), acked_events, findings, trial)
        findings.leftovers_after_kill += len(_temp_files(directory))
        # The next writer must clean up after the killed one.
        store.update(SESSION, _set_mark("crash-recovered"))
        last = _last_sequence(timeline.path(SESSION))
        timeline.emit(SESSION, EVENT_TYPE, {"seq": last + 1})
        remaining = _temp_files(directory)
        if remaining:
            findings.leftovers_after_next_write += len(remaining)
            findings.problems.append(f"trial {trial}: leftovers after the next write: {remaining}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.crash_workflow", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--trials", type=int, default=30, help="number of kills (default 30)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument(
        "--max-delay",
        type=float,
        default=0.05,
        help="longest wait before the kill, in seconds (default 0.05)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the findings to this file")
    args = parser.parse_args(argv)
    if not hasattr(os, "fork"):
        print("crash_workflow needs os.fork (POSIX)", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    os.environ[MAX_LINES_ENV] = str(TIMELINE_MAX_LINES)
    findings = Findings()
    started = time.monotonic()
    for trial in range(1, args.trials + 1):
        run_trial(trial, rng, args.max_delay, findings)
    elapsed = time.monotonic() - started
    for problem in findings.problems[:20]:
        print(problem)
    report = {"seed": seed, "seconds": round(elapsed, 1), **asdict(findings)}
    report.pop("problems")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**report, "problems": findings.problems}, indent=2) + "\n")
    print(
        f"{findings.trials} kills in {elapsed:.1f}s (seed {seed}): "
        f"{findings.acknowledged_state_writes} state writes and {findings.acknowledged_events} events "
        f"acknowledged; corrupt state {findings.corrupt_state}, "
        f"corrupt timeline {findings.corrupt_timeline}, "
        f"lost state writes {findings.lost_state_writes}, lost events {findings.lost_events}, "
        f"leftovers {findings.leftovers_after_kill} after the kill / "
        f"{findings.leftovers_after_next_write} after the next write"
    )
    return 1 if findings.failed else 0


if __name__ == "__main__":
    sys.exit(main())
