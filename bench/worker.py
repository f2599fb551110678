"""Runs one case at one size in this process and prints its figures as one JSON line.

Started by ``bench.suite`` once per case and size (once per repetition for start-up cases), so one
case's caches, heap and imports never colour another's figures.  Peak RSS is the high-water mark of the
process doing the work (this one, or the server's) from the end of the case's setup to the end of its
repetitions; on Linux the mark is reset after setup (``/proc/<pid>/clear_refs``), elsewhere it is the
whole process's.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.cases import BY_NAME, Context, Operation

if TYPE_CHECKING:
    from synapse_spec import contract


Loaded = tuple["contract.Implementation", int, Callable[[], None]]


def load_implementation(spec: str, server: str | None) -> Loaded:
    """The implementation, the pid doing its work and how to close it.

    ``server``: a command serving the wire protocol, driven through ``synapse_spec.remote``.
    """
    if server:
        return _remote(server)
    module_name, _, attr = spec.partition(":")
    target: Any = getattr(importlib.import_module(module_name), attr or "implementation")
    impl = target() if callable(target) and not hasattr(target, "capabilities") else target
    return impl, os.getpid(), lambda: None


def _remote(command: str) -> Loaded:
    try:
        remote: Any = importlib.import_module("synapse_spec.remote")
    except ImportError as exc:
        raise SystemExit(
            f"--server needs the wire client synapse_spec.remote, which is not installed: {exc}"
        ) from exc
    connect = getattr(remote, "connect", None)
    if connect is None:
        raise SystemExit("synapse_spec.remote has no connect(command); cannot start the server")
    client = connect(command)
    pid = int(getattr(client, "pid", os.getpid()))
    impl = getattr(client, "implementation", client)
    close = getattr(client, "close", lambda: None)
    return impl, pid, close


def _status_kb(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak(pid: int) -> bool:
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _peak_kb(pid: int) -> int:
    peak = _status_kb(pid, "VmHWM")
    if peak is not None:
        return peak
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage // 1024 if sys.platform == "darwin" else usage


def run(args: argparse.Namespace) -> dict[str, Any]:
    case = BY_NAME[args.case]
    started, cpu_started = time.perf_counter(), time.process_time()
    impl, pid, close = load_implementation(args.impl, args.server)
    with tempfile.TemporaryDirectory(prefix=f"bench-{case.name}-", dir=args.work_dir) as work:
        ctx = Context(impl=impl, data_dir=Path(args.data_dir), work_dir=Path(work))
        try:
            if case.fresh_process:
                runner = case.setup(ctx, args.n)
                runner.iteration()()
                times = [time.perf_counter() - started]
                cpu = [time.process_time() - cpu_started]
                warmup = 0
                peak_reset = False
            else:
                runner = case.setup(ctx, args.n)
                gc.collect()
                peak_reset = _reset_peak(pid)
                times, cpu, warmup = _repeat(runner.iteration, args)
            peak = _peak_kb(pid)
        finally:
            close()
    return {
        "case": case.name,
        "n": args.n,
        "times_s": times,
        # CPU time of this process: the work's own when it runs here; on a loaded machine it varies far
        # less than the wall-clock time (which waits for a core).  With --server it is the client's.
        "cpu_s": cpu,
        "warmup": warmup,
        "peak_rss_kb": peak,
        "peak_rss_since_setup": peak_reset,
        "pid_measured": "server" if args.server else "worker",
    }


def _repeat(
    iteration: Callable[[], Operation], args: argparse.Namespace
) -> tuple[list[float], list[float], int]:
    """One warm-up, then repetitions until ``min_reps`` are done and ``budget`` seconds are spent (at
    most ``max_reps``).  Only the operation's call is timed, not the freeing of its answer."""
    for _ in range(args.warmup):
        iteration()()
    times: list[float] = []
    cpu: list[float] = []
    while len(times) < args.max_reps:
        operation = iteration()
        start, cpu_start = time.perf_counter(), time.process_time()
        result = operation()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
        # Freed outside the timed region: reference counting would free a big answer (100k parsed
        # turns) inside it, a cost the original's side (a garbage-collected runtime) does not pay there.
        del result
        if len(times) >= args.min_reps and sum(times) >= args.budget:
            break
    return times, cpu, args.warmup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="one benchmark case at one size (used by bench.suite)")
    parser.add_argument("--case", required=True, choices=sorted(BY_NAME))
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--work-dir", default=None)
    parser.add_argument("--impl", default="synapse_ref.adapter:implementation")
    parser.add_argument("--server", default=None)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--min-reps", type=int, default=3)
    parser.add_argument("--max-reps", type=int, default=15)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timed runs to aim for")
    args = parser.parse_args(argv)
    print(json.dumps(run(args)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
