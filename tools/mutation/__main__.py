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
A surviving mutant that only wraps a piece of a message listed in ``tools/mutation/free_wording.toml``
in ``XX`` (words no seed or original fixes, which the scenarios rightly leave free) is reported as free
wording and left out of the score, as Stryker leaves out ignored mutants; the strict score, which counts
them as survivors, is printed beside it. The last line printed is the score; the exit code is 1 when it
is below ``--min-score``. ``--rescore`` reads the JSON of an earlier run and scores it again with the
current equivalent and free-wording entries, without running anything. With ``--json`` every outcome
is also journaled as it comes (``PATH.journal.jsonl``), and ``--resume`` continues a run that stopped
part way on the same tree (a closed terminal, Ctrl-C, SIGTERM, a crash) without running its finished
mutants again.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tools.mutation.equivalents import (
    Equivalent,
    EquivalentsError,
    FreeWording,
    load_equivalents,
    load_free_wording,
    load_scope,
    match_equivalents,
    match_free_wording,
)
from tools.mutation.journal import (
    Journal,
    JournalError,
    fingerprint,
    is_journal,
    journal_path,
    outcome_from_json,
    outcome_to_json,
    read_journal,
    split_done,
)
from tools.mutation.operators import ModuleMutator, Mutant
from tools.mutation.runner import (
    EQUIVALENT,
    FREE_WORDING,
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
DEFAULT_FREE_WORDING = Path(__file__).with_name("free_wording.toml")
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
    parser.add_argument(
        "--json",
        type=Path,
        metavar="PATH",
        help="write the results as JSON; each outcome is also journaled to PATH.journal.jsonl as it comes",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the stopped run journaled beside --json PATH on the same tree and options: "
        "its finished mutants are not run again",
    )
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
        "--free-wording",
        type=Path,
        default=DEFAULT_FREE_WORDING,
        help="messages whose wording no source fixes (default: tools/mutation/free_wording.toml)",
    )
    parser.add_argument(
        "--rescore",
        type=Path,
        metavar="JSON",
        help="score the --json results (or the journal) of an earlier run again with the current entries; "
        "runs nothing",
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

COLUMNS = ("mutants", "killed", "timeout", "survived", "not covered", "equivalent", "free wording", "score")


def score(outcomes: Sequence[Outcome], *, strict: bool = False) -> tuple[int, int]:
    """(killed incl. timed out, non-equivalent mutants); invalid mutants are not mutants.

    Free-wording mutants are left out, unless ``strict``, which counts them as survivors."""
    left_out = (EQUIVALENT, INVALID, NOT_RUN) if strict else (EQUIVALENT, FREE_WORDING, INVALID, NOT_RUN)
    counted = [o for o in outcomes if o.status not in left_out]
    return sum(o.status in (KILLED, TIMEOUT) for o in counted), len(counted)


def stale_free_wording(unused: Sequence[FreeWording], modules: set[str]) -> list[str]:
    """Warnings for the entries of the modules looked at that name no string mutant."""
    return [
        f"free wording: no string mutant of {e.module} holds {e.text!r} (stale?)"
        for e in unused
        if e.module in modules
    ]


def classify_free_wording(outcomes: list[Outcome], entries: Sequence[FreeWording]) -> list[str]:
    """Mark the survivors that only reword a free message; return warnings for entries to look at.

    A killed mutant of a listed message means a scenario pins its words, so the entry is wrong; an
    entry matching no mutant of the modules run is stale. Not covered mutants stay not covered."""
    matched, unused = match_free_wording([o.mutant for o in outcomes], entries)
    warnings = stale_free_wording(unused, {o.mutant.module for o in outcomes})
    for o in outcomes:
        if o.mutant.id not in matched:
            continue
        if o.status == SURVIVED:
            o.status = FREE_WORDING
        elif o.status in (KILLED, TIMEOUT):
            warnings.append(
                f"free wording: {o.mutant.id} was killed: a scenario pins the words of {o.mutant.original}"
            )
    return warnings


def percent(killed: int, total: int) -> str:
    return f"{100.0 * killed / total:.1f}%" if total else "n/a"


def table(outcomes: Sequence[Outcome]) -> list[str]:
    modules = sorted({o.mutant.module for o in outcomes})
    width = max([len("module"), len("total"), *(len(m) for m in modules)])
    rows = [f"{'module':<{width}}  " + "  ".join(f"{c:>12}" for c in COLUMNS)]
    for name, group in [
        *((m, [o for o in outcomes if o.mutant.module == m]) for m in modules),
        ("total", outcomes),
    ]:
        valid = [o for o in group if o.status not in (INVALID, NOT_RUN)]
        counts = [
            sum(o.status == s for o in valid)
            for s in (KILLED, TIMEOUT, SURVIVED, NOT_COVERED, EQUIVALENT, FREE_WORDING)
        ]
        cells = [len(valid), *counts]
        rows.append(
            f"{name:<{width}}  " + "  ".join(f"{c:>12}" for c in cells) + f"  {percent(*score(group)):>12}"
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
    _, strict_total = score(outcomes, strict=True)
    return {
        "score": round(100.0 * killed / total, 2) if total else None,
        "killed": killed,
        "non_equivalent": total,
        "free_wording": strict_total - total,
        "strict_score": round(100.0 * killed / strict_total, 2) if strict_total else None,
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "stale_equivalents": [e.__dict__ for e in unmatched],
        "mutants": [outcome_to_json(o) for o in outcomes],
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
        free_wording = load_free_wording(args.free_wording) if args.free_wording.exists() else []
        scope = load_scope(args.scope) if args.scope.exists() else []
    except (EquivalentsError, ValueError) as exc:
        log(str(exc))
        return 2
    if args.rescore:
        return rescore(args, equivalents, free_wording)
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
        worded, unused = match_free_wording([p.mutant for p in ready], free_wording)
        for item in ready:
            mark = "  [equivalent]" if item.mutant.id in known else ""
            mark = "  [free wording]" if item.mutant.id in worded else mark
            print(f"{item.mutant.id}  {item.mutant.description}{mark}")
            print(f"    - {item.mutant.original}")
            print(f"    + {item.mutant.mutated}")
        for outcome in invalid:
            print(f"{outcome.mutant.id}  [invalid] {outcome.detail}")
        warn_stale(stale_equivalents(mutators, equivalents))
        for warning in stale_free_wording(unused, set(mutators)):
            log(warning)
        print(f"{len(ready)} mutants in {len(modules)} module(s)")
        return 0

    if args.resume and not args.json:
        log("--resume continues the run journaled beside --json PATH: give the same --json")
        return 2
    journal: Journal | None = None
    done: list[Outcome] = []
    if args.json:
        options = {
            "timeout_factor": args.timeout_factor,
            "import_time": args.import_time,
            "spec": args.spec or ["features/"],
        }
        tree = fingerprint(root, options)
        where = journal_path(args.json)
        try:
            done = read_journal(where, tree) if args.resume else []
        except JournalError as exc:
            log(str(exc))
            return 2
        if not args.resume and where.exists():
            log(
                f"starting afresh: the journal of an unfinished run at {where} is replaced "
                "(--resume continues it)"
            )
        journal = Journal(where, tree, resume=args.resume)

    started = time.monotonic()
    timings: dict[str, float] = {}
    workspace = Workspace(root, max(1, args.jobs), args.spec or ["features/"])
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM stops as Ctrl-C does
    try:
        outcomes, unmatched, chosen = _run(
            args, root, modules, equivalents, workspace, journal, done, started, timings
        )
    except RunnerError as exc:
        log(f"mutation run aborted: {exc}")
        return 2
    except KeyboardInterrupt:
        if journal is None:
            log("interrupted; nothing is kept (give --json PATH to journal the outcomes as they come)")
        else:
            log(
                f"interrupted: the finished outcomes are kept in {journal.path}; "
                "the same command with --resume goes on"
            )
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        workspace.close()
        if journal is not None:
            journal.close(remove=False)
    timings["total"] = time.monotonic() - started

    order = {m.id: n for n, m in enumerate(chosen)}
    outcomes.sort(key=lambda o: order.get(o.mutant.id, len(order)))
    warnings = classify_free_wording(outcomes, free_wording)
    if left_out:
        warnings.insert(0, f"out of scope (tools/mutation/scope.toml): {', '.join(left_out)}")
    code = report(outcomes, timings, unmatched, warnings, args)
    if journal is not None:
        # Once every mutant has its outcome the JSON holds them all; after a --time-budget it does not.
        left = sum(o.status == NOT_RUN for o in outcomes)
        journal.close(remove=not left)
        if left:
            log(f"the journal {journal.path} is kept: --resume runs the {left} mutant(s) not run yet")
    return code


def _run(
    args: argparse.Namespace,
    root: Path,
    modules: list[str],
    equivalents: Sequence[Equivalent],
    workspace: Workspace,
    journal: Journal | None,
    done: Sequence[Outcome],
    started: float,
    timings: dict[str, float],
) -> tuple[list[Outcome], list[Equivalent], list[Mutant]]:
    """Map the coverage and run the mutants the journal does not have yet: the outcomes of all of them,
    the equivalent entries that match no mutant, and the mutants chosen (their order is the report's)."""
    mutators = mutators_of(root, modules, workspace.source)
    chosen = select([x for m in mutators.values() for x in m.mutants], args.sample, args.seed, args.mutant)
    ready, outcomes = prepare(mutators, chosen)
    known, _ = match_equivalents([p.mutant for p in ready], equivalents)
    unmatched = stale_equivalents(mutators, equivalents)
    outcomes += [Outcome(p.mutant, EQUIVALENT) for p in ready if p.mutant.id in known]
    ready = [p for p in ready if p.mutant.id not in known]
    resumed, ready = split_done(ready, done)
    outcomes += resumed
    if args.resume:
        log(f"resuming: {len(resumed)} outcome(s) from the journal")
    log(
        f"{len(ready)} mutants to run in {len(modules)} module(s), {len(known)} equivalent, "
        f"{args.jobs} worker(s)"
    )
    if not ready:
        return outcomes, unmatched, chosen

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

    def progress(outcome: Outcome, count: int, total: int) -> None:
        if journal is not None:
            journal.record(outcome)
        if outcome.status == SURVIVED:
            log(f"[{count}/{total}] survived {outcome.mutant.id}  {outcome.mutant.description}")
        elif count % 25 == 0 or count == total:
            log(f"[{count}/{total}] {time.monotonic() - started:.0f} s")

    run_started = time.monotonic()
    deadline = None
    if args.time_budget is not None:
        # In random order, so that what runs before the budget ends is a fair sample of every module.
        deadline = started + args.time_budget
        random.Random(args.seed).shuffle(ready)
    sources = {m: mutator.source for m, mutator in mutators.items()}
    ran = run_mutants(workspace, sources, ready, cover, timeout, args.jobs, progress, deadline)
    outcomes += ran
    timed = [o for o in ran if o.seconds > 0]
    timings["mutants_run"] = time.monotonic() - run_started
    timings["per_mutant_average"] = sum(o.seconds for o in timed) / len(timed) if timed else 0.0
    return outcomes, unmatched, chosen


def report(
    outcomes: list[Outcome],
    timings: dict[str, float],
    unmatched: Sequence[Equivalent],
    notes: Sequence[str],
    args: argparse.Namespace,
) -> int:
    """Print the table, the survivors and both scores; write the JSON; the exit code of --min-score."""
    for line in table(outcomes):
        print(line)
    for note in notes:
        print(note)
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
    if timings:
        print(
            f"timings: baseline and mapping run {timings.get('mapping_run', 0.0):.1f} s, "
            f"per mutant {timings.get('per_mutant_average', 0.0):.2f} s, "
            f"total {timings.get('total', 0.0):.0f} s"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(to_json(outcomes, timings, unmatched), indent=2) + "\n", encoding="utf-8"
        )
    killed, total = score(outcomes)
    strict_killed, strict_total = score(outcomes, strict=True)
    print(
        f"strict score: {percent(strict_killed, strict_total)} ({strict_killed}/{strict_total}, "
        f"the {strict_total - total} free-wording mutants counted as survivors)"
    )
    print(f"mutation score: {percent(killed, total)} ({killed}/{total} non-equivalent mutants killed)")
    if total == 0:
        return 0 if args.min_score <= 0 else 1
    return 0 if 100.0 * killed / total >= args.min_score else 1


def rescore(
    args: argparse.Namespace, equivalents: Sequence[Equivalent], free_wording: Sequence[FreeWording]
) -> int:
    """Score the JSON of an earlier run again: entries documented since then apply, nothing runs.

    Mutants are matched to entries by the texts the JSON holds, as in a run; a mutant the run counted
    as equivalent stays so. A journal is read too: the score of what a run still going (or stopped) has
    finished so far."""
    partial = is_journal(args.rescore)
    try:
        if partial:
            data: dict[str, Any] = {"timings": {}}
            outcomes = read_journal(args.rescore, None)
        else:
            data = json.loads(args.rescore.read_text(encoding="utf-8"))
            # classified afresh below: an earlier run's free wording is a survivor until matched
            outcomes = [
                outcome_from_json(raw, SURVIVED if raw["status"] == FREE_WORDING else None)
                for raw in data["mutants"]
            ]
    except (OSError, ValueError, KeyError, TypeError, JournalError) as exc:
        log(f"cannot rescore {args.rescore}: {exc!r}")
        return 2
    known, _ = match_equivalents([o.mutant for o in outcomes], equivalents)
    for o in outcomes:
        if o.mutant.id in known and o.status in (SURVIVED, NOT_COVERED):
            o.status = EQUIVALENT
    warnings = classify_free_wording(outcomes, free_wording)
    if partial:
        warnings.insert(0, f"partial: the {len(outcomes)} mutant(s) the journaled run has finished so far")
    if args.json and args.json.resolve() == args.rescore.resolve():
        log("--json would overwrite the results being rescored; give another path")
        return 2
    return report(outcomes, dict(data.get("timings", {})), [], warnings, args)


if __name__ == "__main__":
    sys.exit(main())
