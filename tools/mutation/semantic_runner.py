"""``python -m tools.mutation --semantic``: does ``pytest features/`` catch plausible porting bugs?

Each module of ``tools/mutation/semantic/`` (names not starting with ``_``) is a whole implementation,
the reference with one component broken the way a porting team might break it.  Each one is run with
``--synapse-impl=tools.mutation.semantic.<module>`` against the feature directories of its ``AREAS``
(``--full``: all of ``features/``).  Exit code 1 of pytest means killed, 0 survived; any other exit
code (a usage or collection error: the mutant could not even be plugged in) makes the mutant INVALID,
which is reported and left out of the score.  The working tree is only read.

A mutant that rebuilds a component to change one rule in it names, in ``BASELINE``, the control: the
same rebuilt component with no rule changed (``_baseline_*``).  The controls of the chosen mutants run
first, against their own ``AREAS``; a control that fails would let its mutants be "killed" by what the
rebuild lacks instead of by their bug, so they are not run (INVALID) and the run exits with 2.

Examples::

    python -m tools.mutation --semantic --jobs 2
    python -m tools.mutation --semantic --only reader_compact_utf16 --full
    python -m tools.mutation --semantic --area reader --json reports/semantic.json
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "tools.mutation.semantic"
FEATURE_AREAS = ("reader", "skills", "context", "session", "agent", "repl", "workflow")
OPTIONAL_PLUGINS = ("hypothesispytest", "faker", "respx", "anyio", "platformdirs")
KILLED, SURVIVED, TIMEOUT, INVALID = "killed", "survived", "timeout", "INVALID"
SYNTACTIC_SCORE = re.compile(r"\*\*(\d+(?:\.\d+)?)%")


@dataclass(frozen=True)
class SemanticMutant:
    name: str
    areas: tuple[str, ...]
    pattern: str
    summary: str
    baseline: str | None = None


@dataclass
class Verdict:
    mutant: SemanticMutant
    status: str
    seconds: float
    detail: str = ""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.mutation --semantic", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--semantic", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this mutant (repeatable)")
    parser.add_argument(
        "--area", action="append", metavar="AREA", help="run only the mutants of this area (repeatable)"
    )
    parser.add_argument("--full", action="store_true", help="run every mutant against all of features/")
    parser.add_argument("--jobs", type=int, default=1, help="parallel pytest runs (default: %(default)s)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=900.0,
        help="seconds per mutant before it counts as killed by timeout",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants without running them")
    parser.add_argument(
        "--no-controls", action="store_true", help="do not run the chosen mutants' baselines first"
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the verdicts as JSON")
    parser.add_argument(
        "--min-score", type=float, default=0.0, help="exit 1 below this score in %% (default: 0)"
    )
    return parser.parse_args(argv)


def discover(root: Path) -> list[SemanticMutant]:
    """The mutant modules, read without importing them (a broken one must not stop the listing)."""
    return [_read_module(path) for path in _modules(root) if not path.name.startswith("_")]


def discover_controls(root: Path) -> dict[str, SemanticMutant]:
    """The ``_baseline_*`` modules by name: rebuilt components with no rule changed."""
    return {path.stem: _read_module(path) for path in _modules(root) if path.name.startswith("_baseline_")}


def _modules(root: Path) -> list[Path]:
    return sorted((root / Path(*PACKAGE.split("."))).glob("*.py"))


def _read_module(path: Path) -> SemanticMutant:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    values: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("AREAS", "PATTERN", "BASELINE"):
                values[target.id] = ast.literal_eval(node.value)
    declared = values.get("AREAS", FEATURE_AREAS)
    areas = tuple(str(a) for a in declared) if isinstance(declared, (tuple, list)) else FEATURE_AREAS
    baseline = values.get("BASELINE")
    return SemanticMutant(
        path.stem,
        areas,
        str(values.get("PATTERN", "?")),
        doc.split("\n\n")[0].strip(),
        str(baseline) if baseline else None,
    )


def env_for(root: Path) -> dict[str, str]:
    """The caller's environment without settings that would change what the spec runs against."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE_", "PYTEST_", "SYNAPSE_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONHASHSEED"] = "0"
    return env


def command(mutant: SemanticMutant, full: bool, basetemp: Path, plugins_off: bool) -> list[str]:
    targets = ["features/"] if full else [f"features/{area}" for area in mutant.areas]
    flags = [f for name in OPTIONAL_PLUGINS for f in ("-p", f"no:{name}")] if plugins_off else []
    return [
        sys.executable,
        "-m",
        "pytest",
        *targets,
        f"--synapse-impl={PACKAGE}.{mutant.name}",
        "--synapse-report=",
        "-x",
        "-q",
        "--tb=line",
        "--no-header",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        f"--basetemp={basetemp}",
        *flags,
    ]


def run_one(root: Path, mutant: SemanticMutant, full: bool, timeout: float, scratch: Path) -> Verdict:
    basetemp = scratch / mutant.name
    started = time.monotonic()
    for plugins_off in (True, False):
        process = subprocess.Popen(
            command(mutant, full, basetemp, plugins_off),
            cwd=root,
            env=env_for(root),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            raw, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return Verdict(mutant, TIMEOUT, time.monotonic() - started, f"ran over {timeout:g} s")
        output = raw.decode(errors="replace")
        # A fixture of a switched-off plugin: try once more with every plugin.
        if process.returncode in (0, 1) or not plugins_off or "fixture '" not in output:
            break
    seconds = time.monotonic() - started
    if process.returncode == 1:
        return Verdict(mutant, KILLED, seconds, _first_failure(output))
    if process.returncode == 0:
        return Verdict(mutant, SURVIVED, seconds)
    return Verdict(mutant, INVALID, seconds, f"exit code {process.returncode}: {_tail(output)}")


def run_controls(
    pool: ThreadPoolExecutor, root: Path, controls: Sequence[SemanticMutant], timeout: float, scratch: Path
) -> dict[str, str]:
    """Run each control against its areas; the ones that fail, with their first failure."""
    failed: dict[str, str] = {}
    futures = [pool.submit(run_one, root, control, False, timeout, scratch) for control in controls]
    for future in futures:
        verdict = future.result()
        passed = verdict.status == SURVIVED
        print(
            f"[control] {'passes' if passed else 'FAILS':<8} {verdict.mutant.name} ({verdict.seconds:.0f} s) "
            f"{verdict.detail}",
            file=sys.stderr,
            flush=True,
        )
        if not passed:
            failed[verdict.mutant.name] = verdict.detail or verdict.status
    return failed


def _first_failure(output: str) -> str:
    for line in output.splitlines():
        if re.match(r"(FAILED|ERROR) \S+::", line):
            return line
    return ""


def _tail(text: str, lines: int = 8) -> str:
    return " | ".join(text.rstrip().splitlines()[-lines:])


def syntactic_score(root: Path) -> str | None:
    """The last full syntactic run's score, as recorded in ``tools/mutation/SURVIVORS.md``."""
    path = root / "tools" / "mutation" / "SURVIVORS.md"
    if not path.is_file():
        return None
    found = SYNTACTIC_SCORE.search(path.read_text(encoding="utf-8"))
    return f"{found.group(1)}%" if found else None


def score(verdicts: Sequence[Verdict]) -> tuple[int, int]:
    counted = [v for v in verdicts if v.status != INVALID]
    return sum(v.status in (KILLED, TIMEOUT) for v in counted), len(counted)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    root = Path.cwd()
    if not (root / "synapse_ref").is_dir() or not (root / "features").is_dir():
        print("run python -m tools.mutation --semantic from the project root", file=sys.stderr)
        return 2
    mutants = discover(root)
    if args.only:
        unknown = sorted(set(args.only) - {m.name for m in mutants})
        if unknown:
            print(f"no semantic mutant named {', '.join(unknown)}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.name in args.only]
    if args.area:
        mutants = [m for m in mutants if set(m.areas) & set(args.area)]
    if args.list:
        for m in mutants:
            print(f"{m.name:<42} {','.join(m.areas):<18} {m.pattern}")
        print(f"{len(mutants)} semantic mutants")
        return 0
    controls = discover_controls(root)
    missing = sorted({m.baseline for m in mutants if m.baseline and m.baseline not in controls})
    if missing:
        print(f"no baseline module named {', '.join(missing)}", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="synapse-semantic-"))
    started = time.monotonic()
    verdicts: list[Verdict] = []
    failed_controls: dict[str, str] = {}
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            if not args.no_controls:
                failed_controls = run_controls(
                    pool,
                    root,
                    [controls[n] for n in sorted({m.baseline for m in mutants if m.baseline})],
                    args.timeout,
                    scratch,
                )
            runnable = [m for m in mutants if m.baseline not in failed_controls]
            verdicts += [
                Verdict(m, INVALID, 0.0, f"its baseline {m.baseline} fails: {failed_controls[m.baseline]}")
                for m in mutants
                if m.baseline in failed_controls
            ]
            futures = [pool.submit(run_one, root, m, args.full, args.timeout, scratch) for m in runnable]
            for number, future in enumerate(futures, start=1):
                verdict = future.result()
                verdicts.append(verdict)
                print(
                    f"[{number}/{len(runnable)}] {verdict.status:<8} {verdict.mutant.name} "
                    f"({verdict.seconds:.0f} s) {verdict.detail}",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    width = max([len("mutant"), *(len(v.mutant.name) for v in verdicts)])
    print(f"{'mutant':<{width}}  {'status':<8}  {'areas':<18}  pattern")
    for v in verdicts:
        print(f"{v.mutant.name:<{width}}  {v.status:<8}  {','.join(v.mutant.areas):<18}  {v.mutant.pattern}")
    for v in verdicts:
        if v.status == INVALID:
            print(f"invalid: {v.mutant.name}: {v.detail}", file=sys.stderr)
    killed, total = score(verdicts)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "score": round(100.0 * killed / total, 2) if total else None,
            "killed": killed,
            "valid": total,
            "full": args.full,
            "seconds": round(time.monotonic() - started, 1),
            "mutants": [
                {
                    "name": v.mutant.name,
                    "areas": list(v.mutant.areas),
                    "pattern": v.mutant.pattern,
                    "summary": v.mutant.summary,
                    "status": v.status,
                    "seconds": round(v.seconds, 1),
                    "detail": v.detail,
                }
                for v in verdicts
            ],
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    syntactic = syntactic_score(root)
    scope = "all of features/" if args.full else "their areas' features"
    shown = f"{100.0 * killed / total:.1f}%" if total else "n/a"
    beside = f"; syntactic mutants (last full run): {syntactic}" if syntactic else ""
    print(f"semantic mutation score: {shown} ({killed}/{total} killed by {scope}){beside}")
    if failed_controls:
        return 2
    if total == 0:
        return 0 if args.min_score <= 0 else 1
    return 0 if 100.0 * killed / total >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
