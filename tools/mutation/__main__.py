"""``python -m tools.mutation``: how many broken copies of ``synapse_ref`` does ``pytest features/`` catch?

Run from the project root. Examples::

    python -m tools.mutation --module 'synapse_ref/context/*'
    python -m tools.mutation --sample 200 --seed 7 --json reports/mutation.json
    python -m tools.mutation --list --module 'synapse_ref/session/usage.py'
    python -m tools.mutation --semantic --jobs 2      # plausible porting bugs instead (semantic_runner)

A mutant counts as killed when the spec fails (or errors) with it, as timed out when the run exceeds
``--timeout-factor`` times the unmutated run of its scenarios, as not covered when no scenario executes
its line. The score is killed plus timed-out over all mutants not listed as equivalent in
``tools/mutation/equivalent/*.toml``, over the modules not excluded in ``tools/mutation/scope.toml``.
The last line printed is the score; the exit code is 1 when it is below ``--min-score``.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tools.mutation.equivalents import (
    Equivalent,
    EquivalentsError,
    load_equivalents,
    load_scope,
    match_equivalents,
)
from tools.mutation.operators import ModuleMutator, Mutant
from tools.mutation.runner import (
    EQUIVALENT,
    INVALID,
    KILLED,
    NOT_COVERED,
    NOT_RUN,
    SURVIVED,
    TIMEOUT,
    Outcome,
    RunnerError,
    Workspace,
    check_imports,
    coverage_map,
    prepare,
    run_mutants,
)

DEFAULT_EQUIVALENTS = Path(__file__).with_name("equivalent")
DEFAULT_SCOPE = Path(__file__).with_name("scope.toml")
MIN_TIMEOUT = 10.0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--module",
        action="append",
        metavar="GLOB",
        help="restrict to modules matching GLOB, a path like 'synapse_ref/context/*' (repeatable)",
    )
    parser.add_argument(
        "--mutant",
        action="append",
        metavar="ID",
        help="run only the mutant with this id, e.g. to check a survivor again (repeatable)",
    )
    parser.add_argument("--sample", type=int, metavar="N", help="run a random sample of N mutants")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default: %(default)s)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="parallel workers (default: CPUs)"
    )
    parser.add_argument(
        "--timeout-factor",
        type=float,
        default=10.0,
        help="a mutant run longer than this times the unmutated run of the same scenarios (at least "
        f"{MIN_TIMEOUT:g} s) counts as killed by timeout (default: %(default)s)",
    )
    parser.add_argument(
        "--import-time",
        choices=("module", "all"),
        default="module",
        help="scenarios for code that only runs at import time (constants, defaults): those executing "
        "its module, or all (default: %(default)s)",
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help="start no mutant after this many seconds; the mutants then run in random order (--seed)",
    )
    parser.add_argument("--list", action="store_true", help="print the mutants without running them")
    parser.add_argument(
        "--semantic",
        action="store_true",
        help="run the semantic mutants of tools/mutation/semantic/ instead (--semantic --help: options)",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results as JSON")
    parser.add_argument(
        "--min-score", type=float, default=0.0, help="exit 1 below this score in %% (default: 0)"
    )
    parser.add_argument(
        "--spec",
        action="append",
        metavar="PATH",
        help="what pytest runs for the baseline (default: features/; repeatable)",
    )
    parser.add_argument(
        "--equivalent",
        type=Path,
        default=DEFAULT_EQUIVALENTS,
        help="the documented equivalent mutants: a TOML file or a directory of them (default: "
        "tools/mutation/equivalent/)",
    )
    parser.add_argument(
        "--scope",
        type=Path,
        default=DEFAULT_SCOPE,
        help="modules left out of the score, with reasons (default: tools/mutation/scope.toml); "
        "--module naming one explicitly runs it anyway",
    )
    return parser.parse_args(argv)


def discover(
    root: Path, patterns: Sequence[str] | None, excluded: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """(modules to mutate, excluded modules left out). An excluded module is kept only when a pattern
    names it exactly."""
    modules = sorted(p.relative_to(root).as_posix() for p in (root / "synapse_ref").rglob("*.py"))
    modules = [m for m in modules if "__pycache__" not in m]
    if patterns:
        modules = [m for m in modules if any(fnmatch.fnmatch(m, pattern) for pattern in patterns)]
    named = set(patterns or ())
    left_out = [m for m in modules if m in excluded and m not in named]
    return [m for m in modules if m not in left_out], left_out


def mutators_of(root: Path, modules: Sequence[str], read: Callable[[str], str]) -> dict[str, ModuleMutator]:
    """A mutator per module, each told the text of the package's other modules (``Mutant.readers``)."""
    package = {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted((root / "synapse_ref").rglob("*.py"))
        if "__pycache__" not in p.parts
    }
    sources = {m: read(m) for m in modules}
    return {
        m: ModuleMutator(m, sources[m], "\n".join(text for other, text in package.items() if other != m))
        for m in modules
    }


def select(
    mutants: list[Mutant], sample: int | None, seed: int, ids: Sequence[str] | None = None
) -> list[Mutant]:
    if ids:
        mutants = [m for m in mutants if m.id in ids]
    if sample is None or sample >= len(mutants):
        return mutants
    chosen = {m.id for m in random.Random(seed).sample(mutants, sample)}
    return [m for m in mutants if m.id in chosen]


def stale_equivalents(
    mutators: dict[str, ModuleMutator], equivalents: Sequence[Equivalent]
) -> list[Equivalent]:
    """Entries of the selected modules that name no current mutant.

    Judged against every mutant of the modules, not just a sample of them, and against rendered mutants:
    only rendering fills in the mutated line the entries name."""
    ready, _ = prepare(mutators, [x for m in mutators.values() for x in m.mutants])
    _, unmatched = match_equivalents(
        [p.mutant for p in ready], [e for e in equivalents if e.module in mutators]
    )
    return unmatched


def warn_stale(entries: Sequence[Equivalent]) -> None:
    for entry in entries:
        log(f"equivalents: no current mutant matches {entry.module}:{entry.line} {entry.operator} (stale?)")


# --------------------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------------------

COLUMNS = ("mutants", "killed", "timeout", "survived", "not covered", "equivalent", "score")


def score(outcomes: Sequence[Outcome]) -> tuple[int, int]:
    """(killed incl. timed out, non-equivalent mutants); invalid mutants are not mutants."""
    counted = [o for o in outcomes if o.status not in (EQUIVALENT, INVALID, NOT_RUN)]
    return sum(o.status in (KILLED, TIMEOUT) for o in counted), len(counted)


def percent(killed: int, total: int) -> str:
    return f"{100.0 * killed / total:.1f}%" if total else "n/a"


def table(outcomes: Sequence[Outcome]) -> list[str]:
    modules = sorted({o.mutant.module for o in outcomes})
    width = max([len("module"), len("total"), *(len(m) for m in modules)])
    rows = [f"{'module':<{width}}  " + "  ".join(f"{c:>11}" for c in COLUMNS)]
    for name, group in [
        *((m, [o for o in outcomes if o.mutant.module == m]) for m in modules),
        ("total", outcomes),
    ]:
        valid = [o for o in group if o.status not in (INVALID, NOT_RUN)]
        counts = [
            sum(o.status == s for o in valid) for s in (KILLED, TIMEOUT, SURVIVED, NOT_COVERED, EQUIVALENT)
        ]
        cells = [len(valid), *counts]
        rows.append(
            f"{name:<{width}}  " + "  ".join(f"{c:>11}" for c in cells) + f"  {percent(*score(group)):>11}"
        )
    return rows


def survivors(outcomes: Sequence[Outcome]) -> list[str]:
    lines: list[str] = []
    module = ""
    for o in outcomes:
        if o.status not in (SURVIVED, NOT_COVERED):
            continue
        m = o.mutant
        if m.module != module:
            module = m.module
            lines.append(f"--- {module}")
        label = "not covered" if o.status == NOT_COVERED else f"survived {o.tests} scenario(s)"
        lines.append(f"{m.id}  [{label}]  {m.description}")
        lines.append(f"    - {m.original}")
        lines.append(f"    + {m.mutated}")
    return lines


def to_json(
    outcomes: Sequence[Outcome], timings: dict[str, float], unmatched: Sequence[Equivalent]
) -> object:
    killed, total = score(outcomes)
    return {
        "score": round(100.0 * killed / total, 2) if total else None,
        "killed": killed,
        "non_equivalent": total,
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "stale_equivalents": [e.__dict__ for e in unmatched],
        "mutants": [
            {
                "id": o.mutant.id,
                "module": o.mutant.module,
                "line": o.mutant.line,
                "col": o.mutant.col,
                "operator": o.mutant.operator,
                "index": o.mutant.index,
                "description": o.mutant.description,
                "original": o.mutant.original,
                "mutated": o.mutant.mutated,
                "status": o.status,
                "seconds": round(o.seconds, 3),
                "scenarios": o.tests,
                "detail": o.detail,
            }
            for o in outcomes
        ],
    }


# --------------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------------


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if "--semantic" in arguments:
        from tools.mutation import semantic_runner

        return semantic_runner.main(arguments)
    args = parse_args(argv)
    root = Path.cwd()
    if not (root / "synapse_ref").is_dir() or not (root / "pyproject.toml").is_file():
        log("run python -m tools.mutation from the project root (the directory holding synapse_ref/)")
        return 2
    try:
        equivalents = load_equivalents(args.equivalent) if args.equivalent.exists() else []
        scope = load_scope(args.scope) if args.scope.exists() else []
    except (EquivalentsError, ValueError) as exc:
        log(str(exc))
        return 2
    modules, left_out = discover(root, args.module, [e.module for e in scope])
    if not modules:
        log(f"no module under synapse_ref/ matches {args.module} (out of scope: {', '.join(left_out)})")
        return 2
    reasons = {e.module: e.reason for e in scope}
    for module in left_out:
        log(f"out of scope: {module}: {reasons[module]}")

    if args.list:
        mutators = mutators_of(root, modules, lambda m: (root / m).read_text(encoding="utf-8"))
        chosen = select(
            [x for m in mutators.values() for x in m.mutants], args.sample, args.seed, args.mutant
        )
        ready, invalid = prepare(mutators, chosen)
        known, _ = match_equivalents([p.mutant for p in ready], equivalents)
        for item in ready:
            mark = "  [equivalent]" if item.mutant.id in known else ""
            print(f"{item.mutant.id}  {item.mutant.description}{mark}")
            print(f"    - {item.mutant.original}")
            print(f"    + {item.mutant.mutated}")
        for outcome in invalid:
            print(f"{outcome.mutant.id}  [invalid] {outcome.detail}")
        warn_stale(stale_equivalents(mutators, equivalents))
        print(f"{len(ready)} mutants in {len(modules)} module(s)")
        return 0

    started = time.monotonic()
    timings: dict[str, float] = {}
    workspace = Workspace(root, max(1, args.jobs), args.spec or ["features/"])
    try:
        mutators = mutators_of(root, modules, workspace.source)
        chosen = select(
            [x for m in mutators.values() for x in m.mutants], args.sample, args.seed, args.mutant
        )
        ready, outcomes = prepare(mutators, chosen)
        known, _ = match_equivalents([p.mutant for p in ready], equivalents)
        unmatched = stale_equivalents(mutators, equivalents)
        outcomes += [Outcome(p.mutant, EQUIVALENT) for p in ready if p.mutant.id in known]
        ready = [p for p in ready if p.mutant.id not in known]
        log(
            f"{len(ready)} mutants to run in {len(modules)} module(s), {len(known)} equivalent, "
            f"{args.jobs} worker(s)"
        )

        cover, base = coverage_map(workspace, modules)
        cover.import_time_scope = args.import_time
        timings["mapping_run"] = base.seconds
        plugins = "optional plugins off" if workspace.flags else "all plugins"
        empty = ", no scenarios collected" if base.returncode == 5 else ""
        log(
            f"baseline and coverage map: {base.seconds:.1f} s ({plugins}{empty}), {len(cover.tests)} "
            f"distinct scenario(s) execute these modules, {len(cover.all_tests)} any reference code"
        )

        factor: float = args.timeout_factor

        def timeout(tests: list[str]) -> float:
            expected = cover.expected_seconds(tests) if cover.durations else base.seconds
            return max(factor * expected, MIN_TIMEOUT)

        log(check_imports(workspace, cover, timeout))

        def progress(outcome: Outcome, done: int, total: int) -> None:
            if outcome.status == SURVIVED:
                log(f"[{done}/{total}] survived {outcome.mutant.id}  {outcome.mutant.description}")
            elif done % 25 == 0 or done == total:
                log(f"[{done}/{total}] {time.monotonic() - started:.0f} s")

        run_started = time.monotonic()
        deadline = None
        if args.time_budget is not None:
            # In random order, so that what runs before the budget ends is a fair sample of every module.
            deadline = started + args.time_budget
            random.Random(args.seed).shuffle(ready)
        sources = {m: mutator.source for m, mutator in mutators.items()}
        outcomes += run_mutants(workspace, sources, ready, cover, timeout, args.jobs, progress, deadline)
        ran = [o for o in outcomes if o.seconds > 0]
        timings["mutants_run"] = time.monotonic() - run_started
        timings["per_mutant_average"] = sum(o.seconds for o in ran) / len(ran) if ran else 0.0
    except RunnerError as exc:
        log(f"mutation run aborted: {exc}")
        return 2
    finally:
        workspace.close()
    timings["total"] = time.monotonic() - started

    order = {m.id: n for n, m in enumerate(chosen)}
    outcomes.sort(key=lambda o: order.get(o.mutant.id, len(order)))
    for line in table(outcomes):
        print(line)
    if left_out:
        print(f"out of scope (tools/mutation/scope.toml): {', '.join(left_out)}")
    lines = survivors(outcomes)
    if lines:
        print()
        print("survivors (survived or not covered):")
        for line in lines:
            print(line)
    warn_stale(unmatched)
    not_run = sum(o.status == NOT_RUN for o in outcomes)
    if not_run:
        log(f"time budget used up: {not_run} mutant(s) not run and left out of the counts")
    invalid = [o for o in outcomes if o.status == INVALID]
    for o in invalid:
        log(f"invalid mutant skipped: {o.mutant.id}: {o.detail}")
    print()
    print(
        f"timings: baseline and mapping run {timings['mapping_run']:.1f} s, "
        f"per mutant {timings['per_mutant_average']:.2f} s, total {timings['total']:.0f} s"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(to_json(outcomes, timings, unmatched), indent=2) + "\n", encoding="utf-8"
        )
    killed, total = score(outcomes)
    print(f"mutation score: {percent(killed, total)} ({killed}/{total} non-equivalent mutants killed)")
    if total == 0:
        return 0 if args.min_score <= 0 else 1
    return 0 if 100.0 * killed / total >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
