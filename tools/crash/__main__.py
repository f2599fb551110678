"""``python -m tools.crash``: kill a process in the middle of session writes, then check what is left.

For each write path (``append``: ``append_message``; ``rewrite``: ``rewrite_history``; ``index``:
``update_usage``, which rewrites ``sessions.json``) and each trial, a forked child process opens one session
(the same one across ``--epoch`` trials of a path, so damage would pile up as it does for a user), repeats the
write and reports through a pipe every write that returned.  It is killed with SIGKILL after a random
delay.  The parent then reads the session back through the contract and counts:

* lost: acknowledged writes missing afterwards (a message, a rewrite replaced by an older history, a
  usage round);
* corrupt: ``sessions.json`` that is not a valid index, or a history holding something that is not
  exactly one of the written messages;
* count mismatches: ``Session.list`` or ``Session.find`` giving another message count than the history
  file holds;
* temporary files still there after the next write of the session.

Lines left unfinished by the killed write (skipped with a warning when loading) are reported too, but
are no failure: that message was never acknowledged.  The exit code is 1 when anything above is found.

Examples::

    python -m tools.crash                       # 50 trials per path
    python -m tools.crash --trials 1000 --path append --seed 7
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synapse_spec.contract import Implementation
from tools.crash import child
from tools.crash.workload import load_implementation, message, message_tag, rewrite_messages, tag

PATHS = ("append", "rewrite", "index")
SESSION_ID = "session-crash-0001"
TOTAL_KEYS = ("totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation")


@dataclass
class Tally:
    """What one write path's trials found."""

    path: str
    trials: int = 0
    acknowledged: int = 0
    lost: int = 0
    corrupt: int = 0
    count_mismatches: int = 0
    unfinished_lines: int = 0
    temp_files: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.lost or self.corrupt or self.count_mismatches or self.temp_files)

    def note(self, text: str) -> None:
        if len(self.notes) < 10:
            self.notes.append(text)

    def line(self) -> str:
        return (
            f"{self.path:<8} trials {self.trials:>5}  acknowledged {self.acknowledged:>7}  "
            f"lost {self.lost:>4}  corrupt {self.corrupt:>4}  count mismatches {self.count_mismatches:>4}  "
            f"temp files left {len(self.temp_files):>4}  "
            f"unfinished lines (unacknowledged) {self.unfinished_lines:>4}"
        )


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@dataclass
class World:
    """The parent's knowledge of one path's session."""

    sessions_dir: Path
    synapse: Implementation
    acked_tags: list[str] = field(default_factory=list)
    written_tags: set[str] = field(default_factory=set)
    history_tags: list[str] = field(default_factory=list)
    input_total: int = 0
    skipped_lines: int = 0
    expected: dict[str, Any] = field(default_factory=dict)

    def message(self, trial: int, n: int) -> Any:
        """The message the workload wrote as (trial, n), made once."""
        key = tag(trial, n)
        if key not in self.expected:
            self.expected[key] = message(trial, n)
        return self.expected[key]


def run_child(world: World, path: str, trial: int, delay: float) -> tuple[int, str]:
    """Fork the child, kill it ``delay`` seconds after it is ready; the last acknowledged write."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        child.run(world.synapse, path, world.sessions_dir, SESSION_ID, trial, write_fd)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as reports:
        ready = reports.readline()
        if ready.strip() == b"READY":
            time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        lines = reports.read().decode(errors="replace").splitlines()
    if ready.strip() != b"READY":
        return -1, f"child did not start: {ready.decode(errors='replace')}"
    errors = [line for line in lines if line.startswith("ERROR ")]
    if errors or not os.WIFSIGNALED(status):
        return -1, f"child stopped by itself: {errors[:1]}"
    acks = [int(line.split()[1]) for line in lines if line.startswith("ACK ")]
    return (acks[-1] if acks else 0), ""


def _index_problem(sessions_dir: Path) -> str | None:
    try:
        data = json.loads((sessions_dir / "sessions.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"sessions.json unreadable: {exc}"
    if not (isinstance(data, dict) and isinstance(data.get("sessions"), list)):
        return "sessions.json has not the shape of an index"
    if not any(isinstance(e, dict) and e.get("id") == SESSION_ID for e in data["sessions"]):
        return "sessions.json lost the session's entry"
    return None


def check(world: World, tally: Tally, path: str, trial: int, last_ack: int) -> None:
    """Read the session back and count what went wrong in this trial."""
    problem = _index_problem(world.sessions_dir)
    if problem:
        tally.corrupt += 1
        tally.note(f"trial {trial}: {problem}")
    session = world.synapse.find_session(SESSION_ID, world.sessions_dir)
    if session is None:
        tally.corrupt += 1
        tally.note(f"trial {trial}: Session.find gives nothing")
        return
    counter = _Counter()
    logging.getLogger().addHandler(counter)
    try:
        history = session.load_history()
    finally:
        logging.getLogger().removeHandler(counter)
    tally.unfinished_lines += max(0, counter.count - world.skipped_lines)  # skipped lines stay in the file
    world.skipped_lines = counter.count
    tags = [message_tag(m) or "" for m in history]
    for value, t in zip(history, tags, strict=True):
        trial_part, _, n = (t or "").partition(".")
        if t is None or not n.isdigit() or value != world.message(int(trial_part[1:]), int(n)):
            tally.corrupt += 1
            tally.note(
                f"trial {trial}: the history holds a message that was never written: {str(value)[:80]}"
            )
            break
    listed = [e for e in world.synapse.list_sessions(world.sessions_dir) if e.get("id") == SESSION_ID]
    counts = {"list": listed[0].get("messageCount") if listed else None, "find": session.message_count}
    if any(count != len(history) for count in counts.values()):
        tally.count_mismatches += 1
        tally.note(f"trial {trial}: the history holds {len(history)} messages, counts say {counts}")
    if path == "append":
        world.acked_tags += [tag(trial, n) for n in range(1, last_ack + 1)]
        world.written_tags |= {tag(trial, n) for n in range(1, last_ack + 2)}  # the last one in flight
        present = set(tags)
        missing = [t for t in world.acked_tags if t not in present]
        tally.lost += len(missing)
        world.acked_tags = [t for t in world.acked_tags if t in present]  # count each loss once
        if missing:
            tally.note(f"trial {trial}: acknowledged messages lost: {missing[:5]}")
        order = [t for t in tags if t in set(world.acked_tags)]
        unexpected = [t for t in tags if t not in world.written_tags] + (
            ["(out of order)"] if order != world.acked_tags else []
        )
        if unexpected:
            tally.corrupt += 1
            tally.note(f"trial {trial}: messages neither acknowledged nor in flight: {unexpected[:5]}")
    elif path == "rewrite":
        # The last acknowledged rewrite (before any: the history as the trial found it) or the one in flight.
        allowed = [
            [message_tag(m) or "" for m in rewrite_messages(trial, n)] if n else world.history_tags
            for n in (last_ack, last_ack + 1)
        ]
        if tags not in allowed:
            tally.lost += 1
            tally.note(f"trial {trial}: after {last_ack} acknowledged rewrites the history is {tags[:3]}...")
        world.history_tags = tags
    else:
        total = session.get_usage().get("totalInputOther", 0)
        if total < world.input_total + last_ack:
            tally.lost += world.input_total + last_ack - total
            grew = total - world.input_total
            tally.note(f"trial {trial}: {last_ack} acknowledged rounds, input total grew by {grew}")
        elif total > world.input_total + last_ack + 1:
            tally.corrupt += 1
            tally.note(
                f"trial {trial}: input total grew by {total - world.input_total}, {last_ack} rounds written"
            )
        world.input_total = total
    # The next write of the session must clear what the killed one left.
    session.update_usage({"inputOther": 0, "output": 0, "inputCacheRead": 0, "inputCacheCreation": 0})
    left = {p.name for p in world.sessions_dir.iterdir() if ".tmp" in p.name}
    if left - tally.temp_files:
        tally.note(f"trial {trial}: temporary files left: {sorted(left)[:3]}")
    tally.temp_files |= left


def run_path(
    path: str, trials: int, impl: str, rng: random.Random, max_delay: float, root: Path, epoch: int
) -> Tally:
    tally = Tally(path)
    world: World | None = None
    for trial in range(1, trials + 1):
        if world is None or trial % epoch == 1:
            if world is not None:
                shutil.rmtree(world.sessions_dir, ignore_errors=True)
            sessions_dir = Path(tempfile.mkdtemp(prefix=f"crash-{path}-{trial}-", dir=root))
            world = World(sessions_dir, load_implementation(impl)())
        last_ack, error = run_child(world, path, trial, rng.uniform(0, max_delay))
        if error:
            tally.corrupt += 1
            tally.note(f"trial {trial}: {error}")
            continue
        tally.trials += 1
        tally.acknowledged += last_ack
        check(world, tally, path, trial, last_ack)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.crash", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--trials", type=int, default=50, help="kills per write path (default: %(default)s)")
    parser.add_argument("--path", choices=PATHS, action="append", help="write path(s) to test (default: all)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the kill delays (default: random)")
    parser.add_argument("--max-delay", type=float, default=0.05, help="longest delay before a kill, seconds")
    parser.add_argument(
        "--epoch", type=int, default=50, help="trials that share one session (default: %(default)s)"
    )
    parser.add_argument("--impl", default="synapse_ref.adapter", help="implementation, module[:attr]")
    parser.add_argument("--dir", type=Path, default=None, help="where the sessions go (default: a temp dir)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    print(f"crash test: {args.trials} kills per path, seed {seed}, implementation {args.impl}")
    failed = False
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for path in args.path or PATHS:
            tally = run_path(path, args.trials, args.impl, rng, args.max_delay, Path(tmp), max(1, args.epoch))
            print(tally.line(), flush=True)
            for note in tally.notes:
                print(f"    {note}")
            failed |= tally.failed
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    # The warnings of damaged lines are counted, not printed.
    logging.getLogger().addHandler(logging.NullHandler())
    sys.exit(main())
