"""Time of the session layer's write and read paths (a script, not a test).

Four rows, each the median of ``--repeat`` runs in a fresh sessions directory on the real disk:
``append_message`` one message per call, one batch ``append_message`` of the same messages,
``load_history`` of a long history and ``rewrite_history`` of a compacted one.  The messages are a mix
of user text, assistant text with a tool call and tool output, about 740 bytes a line on average (the
size of real sessions: 100,000 lines make 74 MB).

Each row prints the median wall time and, since the machine may be shared, the median CPU time of
this process (``time.process_time``) over the same runs.  Run:
``python bench/bench_session.py [--repeat 5] [--scale 1.0]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synapse_ref.session.session import Session

APPEND_ONE = 10_000
APPEND_BATCH = 10_000
LOAD_LINES = 100_000
REWRITE = 20_000


def build_messages(count: int) -> list[dict[str, Any]]:
    """Deterministic messages, about 740 bytes of JSON each on average."""
    messages: list[dict[str, Any]] = []
    for i in range(count):
        if i % 3 == 0:
            text = f"Please look at src/module_{i}.py and explain what handler_{i} does. " * 7
            messages.append({"role": "user", "content": [{"type": "text", "text": text}]})
        elif i % 3 == 1:
            messages.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"Reading src/module_{i}.py to see the handler."}],
                    "toolCalls": [
                        {"id": f"call_{i}", "name": "read", "arguments": f'{{"path": "src/module_{i}.py"}}'}
                    ],
                }
            )
        else:
            body = f"def handler_{i}(request):\n    return respond(request, status=200)\n" * 20
            messages.append(
                {"role": "tool", "content": [{"type": "text", "text": body}], "toolCallId": f"call_{i - 1}"}
            )
    return messages


def _fresh(root: Path) -> Session:
    sessions_dir = Path(tempfile.mkdtemp(dir=root))
    return Session.create(sessions_dir, model="bench-model", pricing={})


Timing = tuple[float, float]
"""Wall seconds and CPU seconds of one run."""


class _Clock:
    def __enter__(self) -> _Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.timing: Timing = (time.perf_counter() - self.wall, time.process_time() - self.cpu)


def run_append_one(root: Path, count: int = APPEND_ONE) -> Timing:
    """``count`` calls of ``append_message`` with one message each."""
    messages = build_messages(count)
    session = _fresh(root)
    with _Clock() as clock:
        for message in messages:
            session.append_message(message)
    return clock.timing


def run_append_batch(root: Path, count: int = APPEND_BATCH) -> Timing:
    """One ``append_message`` call with ``count`` messages."""
    messages = build_messages(count)
    session = _fresh(root)
    with _Clock() as clock:
        session.append_message(messages)
    return clock.timing


def run_load(root: Path, count: int = LOAD_LINES) -> Timing:
    """``load_history`` of a ``count``-line history, by a session found afresh (as on resuming)."""
    session = _fresh(root)
    session.append_message(build_messages(count))
    found = Session.find(session.id, session.sessions_dir)
    assert found is not None
    with _Clock() as clock:
        loaded = found.load_history()
    assert len(loaded) == count, f"loaded {len(loaded)} of {count} messages"
    return clock.timing


def run_rewrite(root: Path, count: int = REWRITE) -> Timing:
    """``rewrite_history`` with ``count`` messages over a history of the same length."""
    messages = build_messages(count)
    session = _fresh(root)
    session.append_message(messages)
    with _Clock() as clock:
        session.rewrite_history(messages)
    return clock.timing


ROWS: list[tuple[str, Callable[[Path, int], Timing], int]] = [
    ("append, one message per call", run_append_one, APPEND_ONE),
    ("append, one batch", run_append_batch, APPEND_BATCH),
    ("load history", run_load, LOAD_LINES),
    ("rewrite history", run_rewrite, REWRITE),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per row; the median is printed")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size (quick runs: 0.1)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for label, run, size in ROWS:
            count = max(1, int(size * args.scale))
            timings = [run(Path(tmp), count) for _ in range(args.repeat)]
            wall = [w for w, _ in timings]
            cpu = statistics.median(c for _, c in timings)
            print(
                f"{label + f' ({count:,} messages)':<46} median {statistics.median(wall) * 1000:9.1f} ms"
                f"   (min {min(wall) * 1000:.1f}, max {max(wall) * 1000:.1f}, n={len(wall)};"
                f" CPU median {cpu * 1000:.1f} ms)"
            )


if __name__ == "__main__":
    main()
