"""The driver of ``python -m bench.original``: inputs, bun processes, answer checks and the report."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bench import cases, data
from bench.cases import Case, Context
from bench.stats import figures

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = Path(__file__).resolve().parent / "bench.ts"
DEFAULT_BUN = (
    ROOT
    / "harnesses"
    / "typescript-synapse-agent"
    / ".bun-prefix"
    / "node_modules"
    / "bun"
    / "bin"
    / "bun.exe"
)
REPOSITORY = "BaqiF2/Synapse-Agent"

Inputs = Callable[[Path, Path, int], dict[str, Any]]
"""(data directory, the case's scratch directory, N) -> what bench.ts gets as ``inputs``."""


def _manager_settings(threshold: int) -> dict[str, Any]:
    return {"threshold": threshold, "scan_ratio": cases.SCAN_RATIO, "min_chars": cases.MIN_CHARS}


def _session(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"session_id": cases.SESSION_ID, "messages": messages}


INPUTS: dict[str, Inputs] = {
    "tail_read": lambda d, w, n: {
        "path": str(data.transcript_file(d, megabytes=n)),
        "max_chars": cases.TAIL_CHARS,
    },
    "read": lambda d, w, n: {"path": str(data.transcript_file(d, megabytes=n))},
    "compact": lambda d, w, n: {"path": str(data.transcript_file(d, lines=n))},
    "summarize": lambda d, w, n: {"path": str(data.transcript_file(d, lines=n))},
    "offload_if_needed": lambda d, w, n: {
        **_manager_settings(cases.OFFLOAD_THRESHOLD),
        "messages": cases.offloaded_history(w, n),
    },
    "offload_if_needed_warm": lambda d, w, n: {
        **_manager_settings(cases.OFFLOAD_THRESHOLD),
        "messages": cases.offloaded_history(w, n),
        "next_message": cases.NEXT_MESSAGE,
    },
    "token_count": lambda d, w, n: {
        **_manager_settings(cases.COUNT_ONLY_THRESHOLD),
        "messages": data.session_messages(n),
    },
    "first_count": lambda d, w, n: {
        **_manager_settings(cases.COUNT_ONLY_THRESHOLD),
        "messages": [cases.FIRST_MESSAGE],
    },
    "offload_saves": lambda d, w, n: {"contents": data.offload_contents(n)},
    "sanitizer": lambda d, w, n: {"messages": cases.interrupted_history(n)},
    "append_one": lambda d, w, n: _session(data.session_messages(n)),
    "append_batch": lambda d, w, n: _session(data.session_messages(n)),
    "load_history": lambda d, w, n: {
        "session_id": cases.SESSION_ID,
        "history_file": str(data.history_file(d, n)),
    },
    "rewrite_history": lambda d, w, n: _session(data.session_messages(n)),
}
"""The cases the original has, with the inputs each one's namesake in ``bench.cases`` builds."""

ORIGINAL_CASES: tuple[Case, ...] = tuple(case for case in cases.CASES if case.name in INPUTS)


# -- answers ---------------------------------------------------------------------------------------------


def _json(value: Any) -> str:
    """``JSON.stringify``'s text for parsed JSON values (compact, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def _turns_answer(turns: list[Any]) -> dict[str, Any]:
    rows = [
        [
            turn.role,
            turn.content,
            [[call.id, call.name] for call in turn.tool_calls or ()],
            [[result.tool_use_id, result.content] for result in turn.tool_results or ()],
        ]
        for turn in turns
    ]
    return {
        "turns": len(turns),
        "user_turns": sum(turn.role == "user" for turn in turns),
        "tool_calls": sum(len(turn.tool_calls or ()) for turn in turns),
        "tool_results": sum(len(turn.tool_results or ()) for turn in turns),
        "content_utf8_bytes": sum(len(turn.content.encode("utf-8")) for turn in turns),
        "sha256": _sha256(_json(rows)),
    }


def _offload_answer(result: Any) -> dict[str, Any]:
    return {
        "messages": len(result.messages),
        "offloaded_count": result.offloaded_count,
        "previous_tokens": result.previous_tokens,
        "current_tokens": result.current_tokens,
        "freed_tokens": result.freed_tokens,
        "still_exceeds_threshold": result.still_exceeds_threshold,
    }


def history_files(work_dir: Path) -> dict[str, Any]:
    """Lines, size and hash of every session history (``*.jsonl``) in the case's sessions directory."""
    files: dict[str, Any] = {}
    for path in sorted((work_dir / "sessions").glob("*.jsonl")):
        body = path.read_bytes()
        lines = [line for line in body.decode("utf-8").split("\n") if line]
        files[path.name] = {"lines": len(lines), "bytes": len(body), "sha256": _sha256(body)}
    return files


def answer(name: str, result: Any, work_dir: Path) -> dict[str, Any]:
    """The digest of our result that ``bench.ts`` computes of the original's (keep both in step)."""
    if name in ("tail_read", "read"):
        return _turns_answer(result)
    if name == "compact":
        return {"utf8_bytes": len(result.encode("utf-8")), "sha256": _sha256(result)}
    if name == "summarize":
        return {
            "total_turns": result.total_turns,
            "user_turns": result.user_turns,
            "assistant_turns": result.assistant_turns,
            "tool_calls": result.tool_calls,
            "unique_tools": list(result.unique_tools),
            "estimated_tokens": result.estimated_tokens,
        }
    if name in ("offload_if_needed", "offload_if_needed_warm", "token_count", "first_count"):
        return _offload_answer(result)
    if name == "offload_saves":
        paths = [str(path) for path in result]
        return {
            "saved": len(paths),
            "distinct": len(set(paths)),
            "json": sum(path.endswith(".json") for path in paths),
            "txt": sum(path.endswith(".txt") for path in paths),
            "bytes": sum(Path(path).stat().st_size for path in paths),
        }
    if name == "sanitizer":
        return {
            "changed": result.changed,
            "messages": len(result.sanitized),
            "sha256": _sha256(_json(result.sanitized)),
        }
    if name in ("append_one", "append_batch", "rewrite_history"):
        return {"history_files": history_files(work_dir)}
    if name == "load_history":
        return {"messages": len(result), "sha256": _sha256(_json(result))}
    raise ValueError(f"no answer for {name}")


def our_answer(case: Case, n: int, data_dir: Path, work_dir: Path, impl_spec: str) -> dict[str, Any]:
    """Our answer to ``case`` at ``n``: the suite's own case, run once in this process."""
    from bench.worker import load_implementation

    impl, _, close = load_implementation(impl_spec, None)
    try:
        result = case.setup(Context(impl=impl, data_dir=data_dir, work_dir=work_dir), n).iteration()()
        return answer(case.name, result, work_dir)
    finally:
        close()


KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {
    ("summarize", "estimated_tokens"): (
        "the original divides the length of the JSON text in UTF-16 units, the spec in characters: "
        "each emoji outside the BMP in the transcript (the generator adds some) counts twice there"
    ),
}
"""Differences of the answers whose cause is known (the operation still does the same work)."""


def differences(ours: Mapping[str, Any], original: Mapping[str, Any]) -> list[str]:
    """The keys (dotted into nested objects) whose values differ."""
    out: list[str] = []
    for key in sorted(set(ours) | set(original)):
        mine, theirs = ours.get(key), original.get(key)
        if isinstance(mine, Mapping) and isinstance(theirs, Mapping):
            out += [f"{key}.{sub}" for sub in differences(mine, theirs)]
        elif mine != theirs:
            out.append(key)
    return out


# -- bun -------------------------------------------------------------------------------------------------


def bun_environment(home: Path) -> dict[str, str]:
    """The environment of the original's processes: no SYNAPSE_* setting of the caller (the original
    reads them at import), a scratch home (it computes ~/.synapse paths at import) and no log file."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SYNAPSE_")}
    env.update(HOME=str(home), SYNAPSE_LOG_TO_FILE="false")
    return env


def run_bun(args: argparse.Namespace, spec: Path, mode: str) -> dict[str, Any]:
    command = [str(args.bun), str(SCRIPT), str(spec), mode]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, check=False, env=bun_environment(args.home)
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def write_spec(args: argparse.Namespace, case: Case, n: int, work_dir: Path) -> Path:
    """A fresh scratch directory for the case and the spec bench.ts reads (inputs included)."""
    if work_dir.exists():
        shutil.rmtree(work_dir)
    work_dir.mkdir(parents=True)
    spec = work_dir.parent / f"{work_dir.name}.spec.json"
    body = {
        "case": case.name,
        "n": n,
        "src": str(args.src),
        "work_dir": str(work_dir),
        "reps": reps(args),
        "inputs": INPUTS[case.name](args.data_dir, work_dir, n),
    }
    spec.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    return spec


def reps(args: argparse.Namespace) -> dict[str, Any]:
    """The suite's repetition policy (bench.worker and bench.suite): one warm-up, then at least three
    repetitions and about two seconds."""
    if args.reps:
        return {"warmup": 1, "min": args.reps, "max": args.reps, "budget": 0}
    if args.quick:
        return {"warmup": 1, "min": 2, "max": 5, "budget": 0.2}
    return {"warmup": 1, "min": 3, "max": 15, "budget": 2.0}


# -- the cases -------------------------------------------------------------------------------------------


def check(case: Case, args: argparse.Namespace) -> dict[str, Any]:
    """Both answers to ``case`` at its quick size, computed in the same scratch path (the offloaded
    history names it, so its token count depends on it)."""
    n = case.quick
    work_dir = args.work_root / "check" / case.name
    if work_dir.exists():
        shutil.rmtree(work_dir)
    work_dir.mkdir(parents=True)
    ours = our_answer(case, n, args.data_dir, work_dir, args.impl)
    spec = write_spec(args, case, n, work_dir)
    original = run_bun(args, spec, "answer")["answer"]
    differ = differences(ours, original)
    entry: dict[str, Any] = {"case": case.name, "n": n, "match": not differ, "differs": differ}
    notes = [KNOWN_DIFFERENCES[(case.name, key)] for key in differ if (case.name, key) in KNOWN_DIFFERENCES]
    if notes:
        entry["notes"] = notes
    return {**entry, "original": original, "ours": ours}


def measure(case: Case, n: int, args: argparse.Namespace) -> dict[str, Any]:
    work_dir = args.work_root / f"{case.name}-{n}"
    spec = write_spec(args, case, n, work_dir)
    try:
        if not case.fresh_process:
            result = run_bun(args, spec, "time")
        else:
            count = args.reps or (2 if args.quick else 7)
            runs = [run_bun(args, spec, "first") for _ in range(count + 1)][
                1:
            ]  # the first warms the disk cache
            result = {
                **runs[-1],
                "times_s": [t for run in runs for t in run["times_s"]],
                "cpu_s": [t for run in runs for t in run["cpu_s"]],
                "peak_rss_kb": max(run["peak_rss_kb"] for run in runs),
                "warmup": 1,
            }
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
        spec.unlink(missing_ok=True)
    result.update(figures(result["times_s"], result["cpu_s"]), unit=case.unit, pid_measured="bun")
    return result


def run_case(case: Case, args: argparse.Namespace) -> dict[str, Any]:
    full = case.quick if args.quick else case.full
    sizes = [max(1, full // 2), full] if args.growth and not case.fresh_process else [full]
    return {
        "case": case.name,
        "title": case.title,
        "unit": case.unit,
        "runs": [measure(case, n, args) for n in sizes],
    }


def _commit(src: Path, given: str | None) -> str:
    if given:
        return given
    done = subprocess.run(
        ["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() if done.returncode == 0 else "unknown (not a git checkout; see --commit)"


def _bun_version(bun: Path) -> str:
    done = subprocess.run([str(bun), "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def table(entries: list[dict[str, Any]], checks: list[dict[str, Any]]) -> str:
    matched = {check["case"]: check for check in checks}
    header = (
        f"{'case':<38} {'N':>9} {'median ms':>10} {'min':>9} {'max':>9} {'cpu ms':>9} {'reps':>4} "
        f"{'peak RSS':>9}  answer"
    )
    lines = [header, "-" * len(header)]
    for entry in entries:
        for run in entry["runs"]:
            found = matched.get(entry["case"])
            verdict = (
                ""
                if found is None
                else ("same" if found["match"] else "differs: " + ", ".join(found["differs"]))
            )
            median, low, high = (run[key] * 1000 for key in ("median_s", "min_s", "max_s"))
            lines.append(
                f"{entry['title']:<38} {run['n']:>9,} {median:>10,.1f} {low:>9,.1f} {high:>9,.1f} "
                f"{run['cpu_median_s'] * 1000:>9,.1f} {run['reps']:>4} "
                f"{run['peak_rss_kb'] / 1024:>7.0f}MB  {verdict}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.original", description="time the original Synapse Agent on the suite's inputs"
    )
    parser.add_argument("--src", type=Path, default=os.environ.get("SYNAPSE_AGENT_SRC"), help="checkout")
    parser.add_argument("--commit", default=None, help="the checkout's commit, when it is no git checkout")
    parser.add_argument("--bun", type=Path, default=DEFAULT_BUN, help="bun (setup.sh installs it)")
    parser.add_argument("--quick", action="store_true", help="the quick sizes")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--reps", type=int, default=0, help="exact repetitions (default: until ~2 s)")
    parser.add_argument("--growth", action="store_true", help="also time N/2, as the suite does")
    parser.add_argument("--no-check", action="store_true", help="skip comparing the answers")
    parser.add_argument("--impl", default="synapse_ref.adapter:implementation", help="ours, for the check")
    parser.add_argument("--data-dir", type=Path, default=ROOT / "reports" / "bench-data")
    parser.add_argument("--work-dir", type=Path, default=None, help="scratch directory (default: TMPDIR)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "bench-original.json")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    if args.list:
        for case in ORIGINAL_CASES:
            print(f"{case.name:<24} {case.title} (N = {case.full:,} {case.unit}; quick {case.quick:,})")
        return 0
    if args.src is None or not (args.src / "src" / "core").is_dir():
        parser.error(f"--src (or SYNAPSE_AGENT_SRC) must name a checkout of {REPOSITORY} (got {args.src})")
    if not args.bun.exists():
        parser.error(f"no bun at {args.bun}: run harnesses/typescript-synapse-agent/setup.sh {args.src}")
    wanted = {name for name in args.only.split(",") if name}
    unknown = wanted - set(INPUTS)
    if unknown:
        parser.error(f"cases the original does not have or that do not exist: {', '.join(sorted(unknown))}")
    args.src = args.src.resolve()
    args.data_dir = args.data_dir.resolve()
    args.data_dir.mkdir(parents=True, exist_ok=True)
    selected = [case for case in ORIGINAL_CASES if not wanted or case.name in wanted]
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="bench-original-", dir=args.work_dir) as scratch:
        args.work_root = Path(scratch) / "work"
        args.home = Path(scratch) / "home"
        args.home.mkdir()
        checks: list[dict[str, Any]] = []
        if not args.no_check:
            for case in selected:
                print(f"... check {case.name}", file=sys.stderr, flush=True)
                checks.append(check(case, args))
        entries: list[dict[str, Any]] = []
        for case in selected:
            print(f"... {case.name}", file=sys.stderr, flush=True)
            entries.append(run_case(case, args))
    report = {
        "kind": "original",
        "original": {
            "repository": REPOSITORY,
            "commit": _commit(args.src, args.commit),
            "checkout": str(args.src),
            "runtime": f"bun {_bun_version(args.bun)}",
        },
        "mode": "quick" if args.quick else "full",
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "seconds": round(time.time() - started, 1),
        "cases": entries,
        "checks": checks,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(entries, checks))
    print(f"\nwritten: {args.out}")
    return 0
