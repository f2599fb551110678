"""The benchmark suite: every case at N/2 and N, each in a process of its own, as a table and JSON.

``python -m bench.suite`` (``make bench``) runs the full sizes, ``--quick`` (``make bench-quick``) small
ones for a smoke run, ``--only a,b`` some cases, ``--server CMD`` another implementation through the wire
protocol.  Figures: median, min and max of the repetitions, the worker's (or server's) peak RSS, the
growth factor from N/2 to N (2.0 is linear), and at full size the original's figure with the ratio
original / ours (above 1: ours is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.cases import CASES, Case

ROOT = Path(__file__).resolve().parent.parent


def _worker(case: Case, n: int, args: argparse.Namespace) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "bench.worker",
        "--case",
        case.name,
        "--n",
        str(n),
        "--data-dir",
        str(args.data_dir),
        "--impl",
        args.impl,
    ]
    if args.work_dir:
        command += ["--work-dir", str(args.work_dir)]
    if args.server:
        command += ["--server", args.server]
    if args.reps:
        command += ["--min-reps", str(args.reps), "--max-reps", str(args.reps), "--budget", "0"]
    elif args.quick:
        command += ["--min-reps", "2", "--max-reps", "5", "--budget", "0.2"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{case.name} at {n} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(case: Case, n: int, args: argparse.Namespace) -> dict[str, Any]:
    """Figures of one case at one size; a start-up case gets a process per repetition."""
    if not case.fresh_process:
        result = _worker(case, n, args)
    else:
        count = args.reps or (2 if args.quick else 7)
        runs = [_worker(case, n, args) for _ in range(count + 1)][1:]  # the first warms the disk cache
        result = {
            **runs[-1],
            "times_s": [t for run in runs for t in run["times_s"]],
            "peak_rss_kb": max(run["peak_rss_kb"] for run in runs),
            "warmup": 1,
        }
    times = result["times_s"]
    result.update(
        median_s=statistics.median(times), min_s=min(times), max_s=max(times), reps=len(times), unit=case.unit
    )
    return result


def run_case(case: Case, args: argparse.Namespace) -> dict[str, Any]:
    full = case.quick if args.quick else case.full
    sizes = [full] if case.fresh_process else [max(1, full // 2), full]
    runs = [measure(case, n, args) for n in sizes]
    last = runs[-1]
    entry: dict[str, Any] = {
        "case": case.name,
        "title": case.title,
        "unit": case.unit,
        "runs": runs,
        "growth_per_doubling": (last["median_s"] / runs[0]["median_s"]) if len(runs) == 2 else None,
        "original_ms": case.original_ms if full == case.full else None,
    }
    if entry["original_ms"] is not None:
        entry["ratio"] = entry["original_ms"] / (last["median_s"] * 1000)
    return entry


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:,.1f}" if ms < 100 else f"{ms:,.0f}"


def table(entries: list[dict[str, Any]]) -> str:
    header = (
        f"{'case':<38} {'N':>9} {'median ms':>10} {'min':>9} {'max':>9} {'peak RSS':>9} "
        f"{'x/2N':>5} {'orig ms':>8} {'ratio':>7}"
    )
    lines = [header, "-" * len(header)]
    for entry in entries:
        last = entry["runs"][-1]
        growth = entry["growth_per_doubling"]
        original = entry["original_ms"]
        ratio = "" if original is None else f"{entry['ratio']:.2f}"
        lines.append(
            f"{entry['title']:<38} {last['n']:>9,} {_ms(last['median_s']):>10} {_ms(last['min_s']):>9} "
            f"{_ms(last['max_s']):>9} {last['peak_rss_kb'] / 1024:>7.0f}MB "
            f"{'' if growth is None else f'{growth:.2f}':>5} "
            f"{'' if original is None else f'{original:,.0f}':>8} "
            f"{ratio:>7}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run of a few seconds")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--reps", type=int, default=0, help="exact repetitions (default: until ~2 s)")
    parser.add_argument("--impl", default="synapse_ref.adapter:implementation", help="module[:attr]")
    parser.add_argument("--server", default=None, help="a command serving the wire protocol")
    parser.add_argument("--data-dir", type=Path, default=ROOT / "reports" / "bench-data")
    parser.add_argument("--work-dir", type=Path, default=None, help="scratch directory (default: TMPDIR)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "bench.json")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    if args.list:
        for case in CASES:
            print(f"{case.name:<24} {case.title} (N = {case.full:,} {case.unit}; quick {case.quick:,})")
        return 0
    wanted = {name for name in args.only.split(",") if name}
    unknown = wanted - {case.name for case in CASES}
    if unknown:
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
    args.data_dir.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    started = time.time()
    for case in CASES:
        if wanted and case.name not in wanted:
            continue
        print(f"... {case.name}", file=sys.stderr, flush=True)
        entries.append(run_case(case, args))
    report = {
        "mode": "quick" if args.quick else "full",
        "implementation": args.server or args.impl,
        "python": platform.python_version(),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
        "cases": entries,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(table(entries))
    print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
