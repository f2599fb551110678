"""Running the spec against mutants: worker copies, the coverage map, per-mutant runs and the verdicts.

The working tree is never touched: the files pytest needs are copied into ``jobs`` worker directories,
and each mutant is written into one copy, run there and restored. Each run only selects the scenarios
that executed the mutated lines in the coverage mapping run; lines that ran only at import time (module
constants, defaults, decorators) are run against the whole spec, since any scenario may depend on them.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tools.mutation.operators import ModuleMutator, Mutant, MutationError

COPIED = ("conftest.py", "pyproject.toml", "features", "steps", "fixtures", "synapse_ref", "synapse_spec")
PLUGIN_MODULE = "synapse_mutation_contexts"
CANARY = "mutation canary: the worker copy of this module was imported"
# Auto-loaded plugins that cost startup time on every run. They are switched off when the unmutated spec
# passes without them (a scenario needing one of their fixtures would fail the baseline, and then the run
# keeps every plugin).
OPTIONAL_PLUGINS = ("hypothesispytest", "faker", "respx", "anyio", "platformdirs")

KILLED, TIMEOUT, SURVIVED, NOT_COVERED, EQUIVALENT, FREE_WORDING, INVALID, NOT_RUN = (
    "killed",
    "timeout",
    "survived",
    "not-covered",
    "equivalent",
    "free-wording",  # survived, but only the words of a message no source words changed
    "invalid",
    "not-run",
)


class RunnerError(Exception):
    """The mutation run cannot give meaningful results (red baseline, wrong module imported, ...)."""


@dataclass
class Outcome:
    """What happened to one mutant."""

    mutant: Mutant
    status: str
    seconds: float = 0.0
    tests: int = 0
    detail: str = ""


@dataclass
class PytestRun:
    returncode: int
    seconds: float
    output: str
    timed_out: bool = False


@dataclass
class CoverageMap:
    """Source line -> pytest node ids that executed it, per module (``""`` = import time), and how long
    each test ran under coverage."""

    lines: dict[str, dict[int, set[str]]] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)
    all_tests: list[str] = field(default_factory=list)
    module_tests: dict[str, set[str]] = field(default_factory=dict)
    import_time_scope: str = "module"
    durations: dict[str, float] = field(default_factory=dict)
    overhead: float = 0.0

    def selection(self, mutant: Mutant) -> set[str] | None:
        """The node ids covering the mutant, an empty set for code that runs at import time (module and
        class level, defaults, decorators), or None when no scenario reaches it.

        Import-time code is recognised from the source, not from the coverage contexts: a module that is
        first imported inside a scenario records its module-level lines under that one scenario."""
        per_line = self.lines.get(mutant.module, {})
        if mutant.import_time and mutant.readers is not None:
            readers = {c for line in mutant.readers for c in per_line.get(line, set())}
            if not readers:
                return None  # no scenario reads the value
            if any(readers):
                return {c for c in readers if c}
        if mutant.import_time:
            return set() if any(per_line.values()) else None
        contexts: set[str] = set()
        for line in mutant.lines:
            contexts |= per_line.get(line, set())
        if not contexts:
            return None
        return {c for c in contexts if c}  # empty: a function run only while importing

    def targets(self, mutant: Mutant) -> list[str] | None:
        """The node ids to run for a mutant, quickest first, or None when it is not covered.

        Import-time code has no scenario of its own. A value bound at module level that only function
        bodies of its module read gets the scenarios running those lines (``Mutant.readers``). Other
        import-time code, with the ``module`` scope, gets the scenarios
        that execute any code of its module (where such values are nearly always used; a value only
        another module reads may then survive wrongly), with ``all`` every scenario that executes
        reference code (thorough, and far slower)."""
        selected = self.selection(mutant)
        if selected is None:
            return None
        if not selected and self.import_time_scope == "module":
            selected = self.module_tests.get(mutant.module, set())
        return self.ordered(selected or self.all_tests)

    def ordered(self, tests: Iterable[str]) -> list[str]:
        """Quickest first: with ``-x`` a killed mutant stops at its first failing scenario."""
        return sorted(tests, key=lambda t: (self.durations.get(t, 0.0), t))

    def expected_seconds(self, tests: Iterable[str]) -> float:
        """What an unmutated run of ``tests`` should roughly take under coverage, startup included."""
        return self.overhead + sum(self.durations.get(t, 0.0) for t in tests)


def _deduplicate(lines: dict[str, dict[int, set[str]]]) -> dict[str, str]:
    """Map every node id to one representative of the tests that are the same scenario bound by more than
    one test module: same test name and parameters, and the same lines executed."""
    footprint: dict[str, set[tuple[str, int]]] = {}
    for module, per_line in lines.items():
        for line, contexts in per_line.items():
            for context in contexts:
                if context:
                    footprint.setdefault(context, set()).add((module, line))
    chosen: dict[tuple[str, frozenset[tuple[str, int]]], str] = {}
    canonical: dict[str, str] = {}
    for test in sorted(footprint):
        key = (test.split("::", 1)[-1], frozenset(footprint[test]))
        canonical[test] = chosen.setdefault(key, test)
    return canonical


class Workspace:
    """Worker copies of the project in a temporary directory, handed out one per running mutant."""

    def __init__(self, root: Path, jobs: int, spec_paths: Sequence[str]) -> None:
        self.root = root
        self.spec_paths = list(spec_paths)
        self.tmp = Path(tempfile.mkdtemp(prefix="synapse-mutation-"))
        self.plugins = self.tmp / "plugins"
        self.plugins.mkdir()
        shutil.copyfile(Path(__file__).with_name("contexts_plugin.py"), self.plugins / f"{PLUGIN_MODULE}.py")
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
        # One snapshot of the working tree, then identical copies of it: files edited meanwhile cannot
        # make the workers disagree.
        first = self.tmp / "w0"
        first.mkdir()
        for name in COPIED:
            source = root / name
            if source.is_dir():
                shutil.copytree(source, first / name, ignore=ignore)
            elif source.is_file():
                shutil.copyfile(source, first / name)
        self.copies: list[Path] = [first]
        for number in range(1, jobs):
            self.copies.append(Path(shutil.copytree(first, self.tmp / f"w{number}")))
        self._free: list[Path] = list(self.copies)
        self._processes: set[subprocess.Popen[bytes]] = set()
        self.flags: list[str] = [flag for name in OPTIONAL_PLUGINS for flag in ("-p", f"no:{name}")]
        self._lock = threading.Condition()

    def source(self, module: str) -> str:
        """A module's text as snapshotted (what the worker copies hold when no mutant is applied)."""
        return (self.copies[0] / module).read_text(encoding="utf-8")

    def stop(self) -> None:
        """Kill the pytest runs still going (each in a process group of its own, so a Ctrl-C or SIGTERM
        of the tool never reaches them), so that a stopped run ends now and not after their time limits."""
        for process in list(self._processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def acquire(self) -> Path:
        with self._lock:
            while not self._free:
                self._lock.wait()
            return self._free.pop()

    def release(self, copy: Path) -> None:
        with self._lock:
            self._free.append(copy)
            self._lock.notify()

    def env(self, copy: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The parent's environment without settings that would change what the spec runs against."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE_", "PYTEST_", "SYNAPSE_"))}
        # Bytecode and rewritten-assert caches in the copies halve a run's CPU time; write_module drops
        # the mutated module's stale bytecode.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = os.pathsep.join([str(copy), str(self.plugins)])
        env["PYTHONHASHSEED"] = "0"
        return {**env, **(extra or {})}

    def pytest(
        self,
        copy: Path,
        targets: Sequence[str],
        timeout: float | None,
        extra: Sequence[str] = (),
        env: dict[str, str] | None = None,
    ) -> PytestRun:
        """Run the spec (or the given node ids) in a worker copy; stops at the first failure."""
        command = [
            sys.executable,
            *extra,
            "-m",
            "pytest",
            *targets,
            "-x",
            "-q",
            "--tb=short",
            "--no-header",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            f"--basetemp={copy / '.tmp'}",
            "--synapse-report=",
            # The reference offers every area: a mutant dropping one must fail, not turn scenarios into
            # "not applicable".
            "--synapse-require=all",
            *self.flags,
        ]
        return _run(command, copy, self.env(copy, env), timeout, self._processes)

    def write_module(self, copy: Path, module: str, text: str) -> None:
        path = copy / module
        path.write_text(text, encoding="utf-8")
        for stale in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
            stale.unlink(missing_ok=True)


MEMORY_LIMIT = 8 * 1024**3
"""Address space of one pytest run.  A mutant can turn a bounded loop into one that allocates without end
(a run was seen at 15 GB and climbing); capped, it ends in a MemoryError, a failing run, instead of
pushing the machine into swapless exhaustion before its time limit.  The unmutated spec needs well under
1 GB."""


def _run(
    command: list[str],
    cwd: Path,
    env: dict[str, str],
    timeout: float | None,
    running: set[subprocess.Popen[bytes]] | None = None,
) -> PytestRun:
    """Run ``command``; ``running`` holds the process while it runs (for :meth:`Workspace.stop`)."""
    start = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    # Set from here rather than in a preexec_fn, which is unsafe while the worker threads run; the child
    # is still starting its interpreter when the limit lands.
    if running is not None:
        running.add(process)
    try:
        with contextlib.suppress(ProcessLookupError):  # already gone: nothing to limit
            resource.prlimit(process.pid, resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return PytestRun(
                process.returncode, time.monotonic() - start, output.decode(errors="replace"), True
            )
        return PytestRun(process.returncode, time.monotonic() - start, output.decode(errors="replace"))
    finally:
        if running is not None:
            running.discard(process)


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


# --------------------------------------------------------------------------------------------------------
# Baseline, coverage map and the import check
# --------------------------------------------------------------------------------------------------------


def coverage_map(workspace: Workspace, modules: Iterable[str]) -> tuple[CoverageMap, PytestRun]:
    """Run the spec once under coverage, recording per line the node ids that executed it.

    This run is also the baseline: the unmutated spec must pass, or no verdict means anything. It is
    tried first without the optional plugins, then with all of them. A scenario bound by several test
    modules is kept once (see ``_deduplicate``)."""
    from coverage import CoverageData

    copy = workspace.copies[0]
    folder = workspace.tmp / "coverage"
    folder.mkdir()
    data_file, durations_file, rcfile = folder / ".coverage", folder / "durations.json", folder / "coveragerc"
    rcfile.write_text(
        f"[run]\ndata_file = {data_file}\nsource = synapse_ref\nbranch = false\n", encoding="utf-8"
    )

    def mapping_run() -> PytestRun:
        for stale in (data_file, durations_file):
            stale.unlink(missing_ok=True)
        return workspace.pytest(
            copy,
            [*workspace.spec_paths, "-p", PLUGIN_MODULE],
            timeout=None,
            extra=["-m", "coverage", "run", f"--rcfile={rcfile}"],
            env={"MUTATION_DURATIONS_FILE": str(durations_file)},
        )

    run = mapping_run()
    if run.returncode not in (0, 5):
        workspace.flags = []
        run = mapping_run()
    if run.returncode not in (0, 5):
        raise RunnerError(
            "the spec does not pass on the unmutated reference implementation (exit code "
            f"{run.returncode}); fix it or restrict the run with --spec:\n{_tail(run.output)}"
        )
    result = CoverageMap()
    if not data_file.exists():
        return result, run
    data = CoverageData(basename=str(data_file))
    data.read()
    everything: dict[str, dict[int, set[str]]] = {}
    for filename in data.measured_files():
        try:
            module = Path(filename).resolve().relative_to(copy.resolve()).as_posix()
        except ValueError:
            continue
        everything[module] = {line: set(c) for line, c in data.contexts_by_lineno(filename).items()}
    canonical = _deduplicate(everything)
    wanted = set(modules)
    tests: set[str] = set()
    for module, per_line in everything.items():
        if module not in wanted:
            continue
        result.lines[module] = {
            line: {canonical.get(c, c) for c in contexts} for line, contexts in per_line.items()
        }
        in_module = {c for contexts in result.lines[module].values() for c in contexts if c}
        result.module_tests[module] = in_module
        tests.update(in_module)
    result.tests = sorted(tests)
    result.all_tests = sorted(set(canonical.values()))
    if durations_file.exists():
        durations: dict[str, float] = json.loads(durations_file.read_text(encoding="utf-8"))
        result.durations = durations
        result.overhead = max(run.seconds - sum(durations.values()), 0.0)
    return result, run


def check_imports(workspace: Workspace, cover: CoverageMap, timeout: Callable[[list[str]], float]) -> str:
    """Make sure the spec imports each worker copy's ``synapse_ref``, not the working tree's.

    Checked twice: ``synapse_ref.__file__`` must lie in the copy, and a canary mutant (a module that
    raises on import) must be killed by the scenarios that cover it.  The canary's run (start-up and
    collection, no scenario finished) then replaces the mapping run's overhead, which collected every
    scenario under coverage, in the timeouts of the mutants: a looping mutant of a module that two
    scenarios cover was given minutes.
    """
    for copy in workspace.copies:
        probe = _run(
            [sys.executable, "-c", "import synapse_ref, synapse_spec; print(synapse_ref.__file__)"],
            copy,
            workspace.env(copy),
            timeout([]),
        )
        location = probe.output.strip().splitlines()[-1] if probe.output.strip() else ""
        if probe.returncode != 0 or not Path(location).resolve().is_relative_to(copy.resolve()):
            raise RunnerError(
                f"the worker copy {copy} imports synapse_ref from {location or '?'} instead of its own copy; "
                f"check PYTHONPATH and the editable install\n{_tail(probe.output)}"
            )
    candidates = [
        (m, lines) for m, lines in sorted(cover.lines.items()) if any(any(c) for c in lines.values())
    ]
    if not candidates:
        return "import check only (no scenario executes the selected modules, so no canary mutant can run)"
    module, lines = candidates[0]
    tests = cover.ordered({c for contexts in lines.values() for c in contexts if c})
    copy = workspace.acquire()
    original = (copy / module).read_text(encoding="utf-8")
    try:
        workspace.write_module(copy, module, f"{original}\nraise RuntimeError({CANARY!r})\n")
        run = workspace.pytest(copy, tests, timeout(tests))
    finally:
        workspace.write_module(copy, module, original)
        workspace.release(copy)
    if run.returncode == 0 or CANARY not in run.output:
        raise RunnerError(
            f"a canary mutant of {module} (raising on import) was not killed by {len(tests)} scenario(s): "
            f"the spec does not run the worker copy's synapse_ref\n{_tail(run.output)}"
        )
    cover.overhead = min(cover.overhead, run.seconds)
    return f"canary mutant of {module} killed by its {len(tests)} covering scenario(s)"


# --------------------------------------------------------------------------------------------------------
# Running mutants
# --------------------------------------------------------------------------------------------------------


@dataclass
class Prepared:
    """A mutant with its mutated module text, ready to run."""

    mutant: Mutant
    text: str


def prepare(
    mutators: dict[str, ModuleMutator], mutants: Sequence[Mutant]
) -> tuple[list[Prepared], list[Outcome]]:
    """Render every mutant; the ones that cannot be rendered faithfully come back as invalid outcomes."""
    ready: list[Prepared] = []
    invalid: list[Outcome] = []
    for mutant in mutants:
        try:
            text, rendered = mutators[mutant.module].render(mutant)
        except MutationError as exc:
            invalid.append(Outcome(mutant, INVALID, detail=str(exc)))
            continue
        ready.append(Prepared(rendered, text))
    return ready, invalid


def run_mutants(
    workspace: Workspace,
    sources: dict[str, str],
    prepared: Sequence[Prepared],
    cover: CoverageMap,
    timeout: Callable[[list[str]], float],
    jobs: int,
    progress: Callable[[Outcome, int, int], None],
    deadline: float | None = None,
) -> list[Outcome]:
    """Run every mutant against the scenarios covering it, ``jobs`` at a time; results in input order.
    ``timeout`` gives the time limit of a run of the given node ids; mutants not started by ``deadline``
    (a ``time.monotonic()`` value) are not run."""
    done = 0
    lock = threading.Lock()
    stopping = threading.Event()

    def one(item: Prepared) -> Outcome:
        nonlocal done
        if stopping.is_set() or (deadline is not None and time.monotonic() > deadline):
            return Outcome(item.mutant, NOT_RUN)
        outcome = _run_one(workspace, sources[item.mutant.module], item, cover, timeout)
        if stopping.is_set():  # its run was killed by the stop: no verdict
            return Outcome(item.mutant, NOT_RUN)
        with lock:
            done += 1
            progress(outcome, done, len(prepared))
        return outcome

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            return list(pool.map(one, prepared))
        except BaseException:
            stopping.set()  # interrupted: the queued mutants end at once, the running ones are killed
            workspace.stop()
            raise


def _run_one(
    workspace: Workspace,
    source: str,
    item: Prepared,
    cover: CoverageMap,
    timeout: Callable[[list[str]], float],
) -> Outcome:
    mutant = item.mutant
    targets = cover.targets(mutant)
    if targets is None:
        return Outcome(mutant, NOT_COVERED)
    copy = workspace.acquire()
    try:
        workspace.write_module(copy, mutant.module, item.text)
        run = workspace.pytest(copy, targets, timeout(targets))
    finally:
        workspace.write_module(copy, mutant.module, source)
        workspace.release(copy)
    if run.timed_out:
        return Outcome(mutant, TIMEOUT, run.seconds, len(targets))
    if run.returncode == 0:
        return Outcome(mutant, SURVIVED, run.seconds, len(targets))
    if run.returncode == 5:
        return Outcome(mutant, SURVIVED, run.seconds, len(targets), "no scenario ran")
    return Outcome(mutant, KILLED, run.seconds, len(targets), f"exit code {run.returncode}")
