"""The benchmark suite: every case at N/2 and N, each in a process of its own, as a table and JSON.

``python -m bench.suite`` (``make bench``) runs the full sizes, ``--quick`` (``make bench-quick``) small
ones for a smoke run, ``--only a,b`` some cases, ``--server CMD`` another implementation through the wire
protocol.  Figures: median, min and max of the repetitions, the worker's (or server's) peak RSS, the
growth factor from N/2 to N (2.0 is linear), and the original's median with the ratio original / ours
(above 1: ours is faster; ``cpu x``: the same ratio of median CPU times, where both were measured), and
whether the ratio reaches the case's target (``goal``; the tail read must also stay flat in N), with a
line after the table naming the rows below it.  The original's figure is the one measured by ``python -m
bench.original`` when ``--original REPORT`` names its report and it has the case at the same N
("meas"), else the figure typed into ``bench/cases.py`` at full size ("typed").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.cases import CASES, FLAT_GROWTH, Case
from bench.stats import figures

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
            "cpu_s": [t for run in runs for t in run.get("cpu_s", [])],
            "peak_rss_kb": max(run["peak_rss_kb"] for run in runs),
            "warmup": 1,
        }
    result.update(figures(result["times_s"], result.get("cpu_s")), unit=case.unit)
    return result


MEASURED = "meas"
TYPED = "typed"


@dataclass(frozen=True)
class OriginalFigures:
    """The original's medians (ms) by case and N, from a report of ``python -m bench.original``."""

    path: Path
    label: str
    median_ms: dict[tuple[str, int], float] = field(default_factory=dict)
    min_ms: dict[tuple[str, int], float] = field(default_factory=dict)
    cpu_ms: dict[tuple[str, int], float] = field(default_factory=dict)
    """Median CPU time; reports written before it was recorded have none."""


def load_original(path: Path) -> OriginalFigures:
    """Reads a ``bench.original`` report; a file that is not one stops with a clear message."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        original = report["original"]
        commit = str(original["commit"])[:7]
        label = f"{original['repository']} {commit}, {original['runtime']}, {report['started']}"
        medians: dict[tuple[str, int], float] = {}
        minima: dict[tuple[str, int], float] = {}
        cpu: dict[tuple[str, int], float] = {}
        for entry in report["cases"]:
            for run in entry["runs"]:
                key = (str(entry["case"]), int(run["n"]))
                medians[key] = float(run["median_s"]) * 1000
                minima[key] = float(run["min_s"]) * 1000
                if "cpu_median_s" in run:
                    cpu[key] = float(run["cpu_median_s"]) * 1000
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"--original {path}: not a report of python -m bench.original ({exc!r})") from exc
    return OriginalFigures(path, label, medians, minima, cpu)


def original_figure(
    case: Case, n: int, measured: OriginalFigures | None
) -> tuple[float | None, float | None, str | None]:
    """The original's median and min (ms) for ``case`` at ``n`` and where they come from: measured at this
    N when the report has it, else the typed-in figure (a median; full size only), else nothing."""
    if measured is not None and (case.name, n) in measured.median_ms:
        return measured.median_ms[case.name, n], measured.min_ms[case.name, n], MEASURED
    if case.original_ms is not None and n == case.full:
        return case.original_ms, None, TYPED
    return None, None, None


def run_case(case: Case, args: argparse.Namespace) -> dict[str, Any]:
    full = case.quick if args.quick else case.full
    sizes = [full] if case.fresh_process else [max(1, full // 2), full]
    runs = [measure(case, n, args) for n in sizes]
    return entry_of(case, runs, getattr(args, "original_figures", None))


def entry_of(case: Case, runs: list[dict[str, Any]], measured: OriginalFigures | None) -> dict[str, Any]:
    """A case's table entry: our runs and the original's figure at the largest N, with the ratio."""
    last = runs[-1]
    original_ms, original_min_ms, source = original_figure(case, int(last["n"]), measured)
    entry: dict[str, Any] = {
        "case": case.name,
        "title": case.title,
        "unit": case.unit,
        "runs": runs,
        "growth_per_doubling": (last["median_s"] / runs[0]["median_s"]) if len(runs) == 2 else None,
        "original_ms": original_ms,
        "original_min_ms": original_min_ms,
        "original_source": source,
    }
    if original_ms is not None:
        entry["ratio"] = original_ms / (last["median_s"] * 1000)
        entry["target"] = case.target
        growth = entry["growth_per_doubling"]
        flat = not case.flat or (growth is not None and growth <= FLAT_GROWTH)
        entry["meets_target"] = entry["ratio"] >= case.target and flat
    original_cpu = None if measured is None else measured.cpu_ms.get((case.name, int(last["n"])))
    ours_cpu = last.get("cpu_median_s") if last.get("pid_measured") != "server" else None  # else the client's
    if original_cpu is not None and source == MEASURED and ours_cpu:
        entry["original_cpu_ms"] = original_cpu
        entry["cpu_ratio"] = original_cpu / (ours_cpu * 1000)
    return entry


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:,.1f}" if ms < 100 else f"{ms:,.0f}"


def table(entries: list[dict[str, Any]]) -> str:
    header = (
        f"{'case':<38} {'N':>9} {'median ms':>10} {'min':>9} {'max':>9} {'peak RSS':>9} "
        f"{'x/2N':>5} {'orig ms':>8} {'min':>8} {'src':>5} {'ratio':>7} {'cpu x':>7} {'goal':>8}"
    )
    lines = [header, "-" * len(header)]
    for entry in entries:
        last = entry["runs"][-1]
        growth = entry["growth_per_doubling"]
        original = entry["original_ms"]
        original_min = entry.get("original_min_ms")
        source = entry.get("original_source") or ""
        ratio = "" if original is None else f"{entry['ratio']:.2f}"
        cpu_ratio = f"{entry['cpu_ratio']:.2f}" if "cpu_ratio" in entry else ""
        lines.append(
            f"{entry['title']:<38} {last['n']:>9,} {_ms(last['median_s']):>10} {_ms(last['min_s']):>9} "
            f"{_ms(last['max_s']):>9} {last['peak_rss_kb'] / 1024:>7.0f}MB "
            f"{'' if growth is None else f'{growth:.2f}':>5} "
            f"{'' if original is None else _ms(original / 1000):>8} "
            f"{'' if original_min is None else _ms(original_min / 1000):>8} {source:>5} "
            f"{ratio:>7} {cpu_ratio:>7} {_goal(entry):>8}"
        )
    return "\n".join(lines)


def _goal(entry: dict[str, Any]) -> str:
    """``>=1.5 ok`` or ``>=10 no``: the case's target and whether the row reaches it."""
    if "meets_target" not in entry:
        return ""
    return f">={entry['target']:g} {'ok' if entry['meets_target'] else 'no'}"


def _shortfall(entry: dict[str, Any]) -> str:
    if entry["ratio"] < entry["target"]:
        return f"{entry['case']} {entry['ratio']:.2f} < {entry['target']:g}"
    return f"{entry['case']} not flat (x{entry['growth_per_doubling']:.2f} per doubling)"


def verdict(entries: list[dict[str, Any]]) -> str:
    """One line: how many rows with an original's figure reach their target, and which do not."""
    judged = [entry for entry in entries if "meets_target" in entry]
    if not judged:
        return "targets: no row has an original's figure"
    below = [_shortfall(entry) for entry in judged if not entry["meets_target"]]
    met = len(judged) - len(below)
    line = f"targets (ratio original / ours, wall): {met} of {len(judged)} rows reach theirs"
    return line + (f"; below: {', '.join(below)}" if below else "")


def sources(measured: OriginalFigures | None) -> dict[str, str]:
    """What the ``src`` column's tags stand for."""
    described = {TYPED: "typed into bench/cases.py from an earlier measurement (bench/README.md)"}
    if measured is not None:
        described[MEASURED] = f"measured: {measured.path} ({measured.label})"
    return described


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
    parser.add_argument(
        "--original",
        type=Path,
        default=None,
        help="a report of python -m bench.original: the ratio against its figures (else the typed-in ones)",
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    args.original_figures = load_original(args.original) if args.original else None
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
        "original": sources(args.original_figures),
        "targets": verdict(entries),
        "cases": entries,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(table(entries))
    print(verdict(entries))
    print()
    for source, description in sources(args.original_figures).items():
        print(f"orig {source}: {description}")
    print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
