"""The pytest plugin that runs the spec: implementation selection, integrity checks and the report.

* ``--synapse-impl=package.module[:attr]`` (or ``SYNAPSE_IMPL``) selects the implementation under test;
  the ``synapse`` fixture hands it to the step definitions.
* The run fails when a ``.feature`` file is bound by no test module, a step line has no definition or
  more than one, or a scenario is skipped (pytest-bdd would otherwise pick one of two matching
  definitions silently, and a skip looks green).
* Every scenario carries one stable ID tag (``@CTX-001``); reports and baselines key on it.
* ``--synapse-baseline=FILE`` runs an implementation's known failures as strict expected failures.
* At the end a per-feature table is printed and a JSON and a Markdown report are written
  (``--synapse-report=DIR``, default ``reports/``).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from _pytest.terminal import TerminalReporter

from synapse_spec.baseline import BaselineError, KnownFailure, load_baseline
from synapse_spec.contract import CAPABILITIES, Implementation
from synapse_spec.report import ScenarioOutcome, build_report, ran, render_table, write_reports

# --synapse-server: the implementation in another process, over the wire protocol.
pytest_plugins = ["synapse_spec.wire_plugin"]

DEFAULT_IMPL = "synapse_ref.adapter:implementation"
NOT_APPLICABLE = "not applicable: "

_loader_key = pytest.StashKey[Callable[[], Implementation]]()
_outcomes_key = pytest.StashKey[dict[str, "ScenarioOutcome"]]()
_baseline_key = pytest.StashKey[dict[str, KnownFailure]]()
_required_key = pytest.StashKey[frozenset[str]]()

SCENARIO_ID = re.compile(r"^[A-Z][A-Z0-9]*-\d{3}$")


# --------------------------------------------------------------------------------------------------------
# Options and the implementation seam
# --------------------------------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("synapse", "Synapse executable spec")
    group.addoption(
        "--synapse-impl",
        default=os.environ.get("SYNAPSE_IMPL", DEFAULT_IMPL),
        metavar="MODULE[:ATTR]",
        help="implementation under test: an object satisfying synapse_spec.contract.Implementation, or a "
        "callable returning one (default: %(default)s; env SYNAPSE_IMPL)",
    )
    group.addoption(
        "--synapse-baseline",
        default=os.environ.get("SYNAPSE_BASELINE"),
        metavar="FILE",
        help="JSON file of known failures (id, reason, link, date) run as strict expected failures",
    )
    group.addoption(
        "--synapse-require",
        default=os.environ.get("SYNAPSE_REQUIRE", ""),
        metavar="CAPS",
        help="capabilities the implementation must offer, comma-separated, or 'all': a scenario needing "
        "one it lacks fails instead of being not applicable (default: none; env SYNAPSE_REQUIRE)",
    )
    group.addoption(
        "--synapse-report",
        default="reports",
        metavar="DIR",
        help="directory for synapse-spec.json and synapse-spec.md (default: %(default)s; '' to disable)",
    )


def load_implementation(spec: str) -> Callable[[], Implementation]:
    """Resolve ``package.module[:attr]`` to a factory of implementations (``attr`` defaults to
    ``implementation``)."""
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise pytest.UsageError(f"--synapse-impl={spec}: cannot import {module_name!r}: {exc}") from exc
    try:
        target = getattr(module, attr or "implementation")
    except AttributeError:
        raise pytest.UsageError(
            f"--synapse-impl={spec}: module {module_name!r} has no attribute {attr or 'implementation'!r}"
        ) from None
    if isinstance(target, Implementation) and not isinstance(target, type):
        instance = target
        return lambda: instance
    if callable(target):
        return cast(Callable[[], Implementation], target)
    raise pytest.UsageError(f"--synapse-impl={spec}: {target!r} is neither an implementation nor callable")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_loader_key] = load_implementation(config.getoption("--synapse-impl"))
    config.stash[_outcomes_key] = {}
    config.stash[_required_key] = _parse_required(config.getoption("--synapse-require"))
    baseline = config.getoption("--synapse-baseline")
    try:
        config.stash[_baseline_key] = load_baseline(Path(baseline)) if baseline else {}
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None
    for tag in sorted(_feature_tags(Path(config.rootpath) / "features")):
        config.addinivalue_line("markers", f"{tag}: Gherkin tag")


def _parse_required(value: str) -> frozenset[str]:
    """``--synapse-require``: a comma-separated list of capabilities, or ``all``."""
    names = {name.strip() for name in value.split(",") if name.strip()}
    if "all" in names:
        return frozenset(CAPABILITIES)
    unknown = names - frozenset(CAPABILITIES)
    if unknown:
        raise pytest.UsageError(
            f"--synapse-require: unknown capabilities {', '.join(sorted(unknown))} "
            f"(known: {', '.join(sorted(CAPABILITIES))}, or all)"
        )
    return frozenset(names)


@pytest.fixture
def synapse(request: pytest.FixtureRequest) -> Implementation:
    """The implementation under test, fresh for every scenario."""
    impl = request.config.stash[_loader_key]()
    missing = _required_capabilities(request.node) - frozenset(impl.capabilities)
    required: frozenset[str] = request.config.stash[_required_key]
    demanded = missing & required
    if demanded:
        pytest.fail(
            f"{impl.name} does not offer {', '.join(sorted(demanded))}, which --synapse-require demands",
            pytrace=False,
        )
    if missing:
        pytest.skip(f"{NOT_APPLICABLE}{impl.name} does not offer {', '.join(sorted(missing))}")
    return impl


@pytest.fixture(autouse=True)
def _isolated_synapse_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No scenario reads the user's ``~/.synapse`` or depends on ``SYNAPSE_*`` settings of the shell."""
    for name in list(os.environ):
        if name.startswith("SYNAPSE_") and name not in ("SYNAPSE_IMPL", "SYNAPSE_BASELINE"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SYNAPSE_HOME", str(tmp_path_factory.mktemp("synapse-home")))


def _required_capabilities(item: pytest.Item) -> frozenset[str]:
    return frozenset(m.name for m in item.iter_markers() if m.name in CAPABILITIES)


def _feature_tags(features_dir: Path) -> set[str]:
    tags: set[str] = set()
    for path in features_dir.rglob("*.feature"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("@"):
                tags.update(word[1:] for word in stripped.split() if word.startswith("@"))
    return tags


# --------------------------------------------------------------------------------------------------------
# Integrity checks at collection time
# --------------------------------------------------------------------------------------------------------


def _scenario_of(item: pytest.Item) -> Any | None:
    """The rendered pytest-bdd scenario behind a test item, or None for plain tests."""
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    func = getattr(item, "function", None)
    template = scenario_wrapper_template_registry.get(func) if func is not None else None
    if template is None:
        return None
    callspec = getattr(item, "callspec", None)
    example = callspec.params.get("_pytest_bdd_example", {}) if callspec is not None else {}
    return template.render(example)


def _visible_step_functions(item: pytest.Item) -> list[tuple[Any, Callable[..., Any]]]:
    """(step context, step function) of every step definition visible to ``item``."""
    from pytest_bdd.compat import get_fixture_names, getfixturedefs
    from pytest_bdd.steps import step_function_context_registry

    manager = item.session._fixturemanager
    visible = []
    for name in get_fixture_names(fixturemanager=manager):
        for fixturedef in getfixturedefs(manager, name, item) or []:
            context = step_function_context_registry.get(fixturedef.func)
            if context is not None:
                visible.append((context, context.step_func))
    return visible


def _step_problems(
    item: pytest.Item, scenario: Any, cache: dict[str, list[tuple[Any, Callable[..., Any]]]]
) -> Iterator[str]:
    """Missing and ambiguous step definitions of one scenario.

    Same matching as pytest-bdd's ``find_fixturedefs_for_step``, but the visible definitions are looked
    up once per test module (they are the same for all its items): asking pytest per step made this
    check most of the collection time."""
    module = item.parent.nodeid if item.parent is not None else ""
    if module not in cache:
        cache[module] = _visible_step_functions(item)
    for step in scenario.steps:
        funcs = {
            func
            for context, func in cache[module]
            if context.type in (None, step.type) and context.parser.is_matching(step.name)
        }
        where = f"{Path(scenario.feature.filename).name}:{step.line_number}"
        if not funcs:
            yield f"{where}: no step definition for {step.type} {step.name!r}"
        elif len(funcs) > 1:
            names = ", ".join(sorted(f"{f.__module__}.{f.__qualname__}" for f in funcs))
            yield f"{where}: {step.type} {step.name!r} is matched by several definitions: {names}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    problems: list[str] = []
    bound: set[Path] = set()
    owners: dict[str, str] = {}
    outcomes = config.stash[_outcomes_key]
    known = config.stash[_baseline_key]
    step_cache: dict[str, list[tuple[Any, Callable[..., Any]]]] = {}
    for item in items:
        scenario = _scenario_of(item)
        if scenario is None:
            continue
        bound.add(Path(scenario.feature.filename).resolve())
        problems.extend(_step_problems(item, scenario, step_cache))
        where = f"{Path(scenario.feature.filename).name}:{scenario.line_number}"
        ids = sorted(tag for tag in scenario.tags if SCENARIO_ID.match(tag))
        if len(ids) != 1:
            problems.append(
                f"{where}: scenario {scenario.name!r} needs exactly one ID tag like @CTX-001, has {ids}"
            )
            continue
        scenario_id = ids[0]
        owner = owners.setdefault(scenario_id, f"{scenario.feature.filename}:{scenario.line_number}")
        if owner != f"{scenario.feature.filename}:{scenario.line_number}":
            problems.append(f"{where}: ID @{scenario_id} is already used at {Path(owner).name}")
        outcomes[item.nodeid] = ScenarioOutcome(
            scenario_id, _feature_label(scenario.feature), scenario.name, sorted(scenario.tags)
        )
        if scenario_id in known:
            entry = known[scenario_id]
            reason = f"known failure: {entry.reason} ({entry.link or 'no link'}, {entry.date})"
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    unknown = sorted(set(known) - set(owners))
    if unknown and owners:
        problems.append(f"baseline lists IDs that name no scenario of the spec: {', '.join(unknown)}")
    for path in _feature_files_in_scope(config):
        if path.resolve() not in bound:
            problems.append(f"{path.relative_to(config.rootpath)}: no test module binds this feature file")
    if problems:
        unique = list(dict.fromkeys(problems))
        raise pytest.UsageError("the executable spec is inconsistent:\n  " + "\n  ".join(unique))


def _feature_files_in_scope(config: pytest.Config) -> list[Path]:
    """Feature files under the directories this run was asked to collect (all of ``features/`` for
    ``pytest features/``, one domain for ``pytest features/context``)."""
    found: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path.is_dir():
            found.update(path.rglob("*.feature"))
    return sorted(found)


# --------------------------------------------------------------------------------------------------------
# Outcomes, the skipped-scenario rule and the report
# --------------------------------------------------------------------------------------------------------


def _feature_label(feature: Any) -> str:
    return f"{feature.name} ({Path(feature.filename).name})"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    record = item.config.stash[_outcomes_key].get(item.nodeid)
    if record is not None:
        _record_outcome(record, report)
    return report


def _record_outcome(record: ScenarioOutcome, report: pytest.TestReport) -> None:
    if report.passed and report.when == "call":
        record.status = "passed"
    elif report.skipped:
        reason = _skip_reason(report)
        if hasattr(report, "wasxfail"):
            record.status, record.message = "known-failure", str(report.wasxfail)
        elif reason.startswith(NOT_APPLICABLE):
            record.status, record.message = "not-applicable", reason[len(NOT_APPLICABLE) :]
        else:
            record.status, record.message = "skipped", reason
    elif report.failed:
        if report.when == "call" and "XPASS(strict)" in str(report.longrepr):
            record.status = "failed"
            record.message = f"stale baseline entry: {record.id} passes now; remove it from the baseline"
        elif report.when == "call":
            record.status = "failed"
        elif record.status in ("not-run", "passed"):
            record.status = "errored"
        record.message = record.message or _failure_message(report)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
        return reason[len("Skipped: ") :] if reason.startswith("Skipped: ") else reason
    return str(longrepr)


def _failure_message(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    return str(crash.message) if crash is not None else str(report.longrepr).splitlines()[-1]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    outcomes = session.config.stash[_outcomes_key].values()
    if any(o.status == "skipped" for o in outcomes) and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    outcomes = ran(config.stash[_outcomes_key].values())
    if not outcomes:
        return
    write = terminalreporter.write_line
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        terminalreporter.write_sep("=", "skipped scenarios fail the spec", red=True)
        for o in skipped:
            write(f"{o.id} {o.title}: {o.message}")
    impl = config.stash[_loader_key]()
    terminalreporter.write_sep("=", f"Synapse spec: {impl.name} {impl.version}")
    for line in render_table(outcomes):
        write(line)
    directory = config.getoption("--synapse-report")
    if directory:
        report = build_report(
            outcomes,
            implementation={
                "name": impl.name,
                "version": impl.version,
                "selected": config.getoption("--synapse-impl"),
            },
            baseline=config.getoption("--synapse-baseline"),
        )
        json_path, md_path = write_reports(report, Path(config.rootpath, directory))
        write(f"reports: {json_path}, {md_path}")
