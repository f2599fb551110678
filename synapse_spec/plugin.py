"""The pytest plugin that runs the spec: implementation selection, integrity checks and the report.

It is registered through the ``pytest11`` entry point, so its options exist in every pytest run of an
environment where synapse-spec is installed; it checks scenarios only in runs that ask for it
(``-p synapse_spec.plugin``, or a conftest's ``pytest_plugins``, as the spec's own conftest does).

* ``--synapse-impl=package.module[:attr]`` (or ``SYNAPSE_IMPL``) selects the implementation under test;
  the ``synapse`` fixture hands it to the step definitions.  The implementation is checked once, up front:
  its ``capabilities`` must be a set of known names, and every member of a declared capability must exist.
* A scenario needs exactly the capabilities whose members its steps use (``contract.CAPABILITY_FACTORIES``);
  when it reaches for one the implementation does not declare it is *not applicable* (or fails, when
  ``--synapse-require`` demands that capability).  A run in which no scenario applies fails.
* The run fails when a ``.feature`` file is bound by no test module, a step line has no definition or
  more than one, or a scenario is skipped (pytest-bdd would otherwise pick one of two matching
  definitions silently, and a skip looks green).
* Every scenario carries one stable ID tag (``@CTX-001``); every example of an outline gets its own
  example ID (``CTX-002#2``), which is also its pytest id (``test_…[CTX-002#2]``), so ``-k CTX-002``,
  ``-k CTX_002`` and ``--synapse-id=CTX-002#2`` select it.  Reports and baselines key on these IDs.
* ``--synapse-baseline=FILE`` runs an implementation's known failures; a listed scenario that passes fails
  the run as a stale entry.
* ``--synapse-llm=loopback:anthropic|loopback:openai`` hands components the implementation's own HTTP
  model client talking to the scenario's scripted model on 127.0.0.1 (``synapse_spec.loopback``).
* At the end a per-feature table is printed and a JSON and a Markdown report are written
  (``--synapse-report=DIR``, default ``reports/``); JUnit XML and Cucumber JSON keep the statuses
  *not applicable* and *known failure* apart from passed and skipped.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Generator, Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from _pytest.terminal import TerminalReporter

from synapse_spec import loopback
from synapse_spec.baseline import BaselineError, KnownFailure, entry_for, load_baseline
from synapse_spec.catalog import SCENARIO_ID, example_id, known_ids, read_features
from synapse_spec.contract import (
    CAPABILITIES,
    CAPABILITY_FACTORIES,
    FACTORY_CAPABILITY,
    RETIRED_CAPABILITIES,
    Implementation,
)
from synapse_spec.report import ScenarioOutcome, build_report, ran, render_table, write_reports

# --synapse-server: the implementation in another process, over the wire protocol.
pytest_plugins = ["synapse_spec.wire_plugin"]

DEFAULT_IMPL = "synapse_ref.adapter:implementation"
NOT_APPLICABLE = "not applicable: "
EXAMPLE_PARAM = "_pytest_bdd_example"
PLUGIN = "synapse_spec.plugin"


@dataclass
class ImplementationInfo:
    """What the up-front check read from one instance; the report and the terminal use it."""

    name: str
    version: str
    capabilities: frozenset[str]


@dataclass
class SpecRun:
    """The state of one spec run, kept in ``config.stash``."""

    selected: str
    required: frozenset[str]
    baseline_path: Path | None
    baseline: dict[str, KnownFailure]
    ids: frozenset[str]
    outcomes: dict[str, ScenarioOutcome] = field(default_factory=dict)
    loader: Callable[[], Implementation] | None = None
    info: ImplementationInfo | None = None
    requested: bool = False


_run_key = pytest.StashKey[SpecRun]()
_loader_key = pytest.StashKey[Callable[[], Implementation]]()
"""The seam of other plugins: a loader stored here (by ``wire_plugin`` for ``--synapse-server``, which also
sets ``--synapse-impl`` to name the server) replaces loading ``--synapse-impl`` in this process."""


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
        help="JSON file of known failures (id, reason, link, date); a listed scenario that passes fails "
        "the run as a stale entry",
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
        help="directory for synapse-spec.json and synapse-spec.md, relative to the current directory "
        "(default: %(default)s; '' to disable)",
    )
    group.addoption(
        "--synapse-id",
        action="append",
        default=[],
        metavar="IDS",
        help="run only these scenarios or examples (CTX-002, CTX-002#2), comma-separated; repeatable",
    )
    loopback.add_option(group)


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


def check_implementation(spec: str, loader: Callable[[], Implementation]) -> ImplementationInfo:
    """Build one instance and check what it declares, so that a typo or a missing factory is one clear
    message before the run instead of hundreds of skipped or failing scenarios."""
    try:
        impl = loader()
        name, version, declared = impl.name, impl.version, impl.capabilities
    except Exception as exc:
        raise pytest.UsageError(
            f"--synapse-impl={spec}: creating the implementation failed: {type(exc).__name__}: {exc}"
        ) from exc
    if isinstance(declared, str) or not isinstance(declared, Set):
        raise pytest.UsageError(
            f"{name}: capabilities must be a set of names such as frozenset({{'reader'}}), "
            f"not {type(declared).__name__} {declared!r}"
        )
    problems = []
    for capability in sorted(str(c) for c in declared):
        if capability in RETIRED_CAPABILITIES:
            problems.append(
                f"capability {capability!r} was split into "
                f"{', '.join(sorted(RETIRED_CAPABILITIES[capability]))}; declare the ones you offer"
            )
        elif capability not in CAPABILITIES:
            problems.append(f"unknown capability {capability!r} (known: {', '.join(sorted(CAPABILITIES))})")
        else:
            problems.extend(
                f"declares capability {capability} but has no {member}"
                for member in sorted(CAPABILITY_FACTORIES[capability] & _CONTRACT_MEMBERS)
                if not _has_member(impl, member)
            )
    if problems:
        raise pytest.UsageError(f"{name} ({spec}):\n  " + "\n  ".join(problems))
    return ImplementationInfo(str(name), str(version), frozenset(declared))


_CONTRACT_MEMBERS = frozenset(m for m in vars(Implementation) if not m.startswith("_"))
"""Members every implementation object answers for; optional protocols (``HttpLLMClientFactory``) are
checked by the plugin that uses them."""


def _has_member(impl: object, member: str) -> bool:
    try:
        getattr(impl, member)
    except AttributeError:
        return False
    return True


def pytest_configure(config: pytest.Config) -> None:
    baseline = config.getoption("--synapse-baseline")
    try:
        known = load_baseline(Path(baseline)) if baseline else {}
    except BaselineError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[_run_key] = SpecRun(
        selected=config.getoption("--synapse-impl"),
        required=_parse_required(config.getoption("--synapse-require")),
        baseline_path=Path(baseline) if baseline else None,
        baseline=known,
        ids=frozenset(
            name.strip()
            for value in config.getoption("--synapse-id")
            for name in value.split(",")
            if name.strip()
        ),
    )
    config.pluginmanager.register(_CucumberStatuses(config), "synapse-cucumber-statuses")


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


def _prepare(config: pytest.Config) -> tuple[Callable[[], Implementation], ImplementationInfo]:
    run = config.stash[_run_key]
    if run.loader is None or run.info is None:
        run.selected = config.getoption("--synapse-impl")
        run.loader = config.stash.get(_loader_key, None) or load_implementation(run.selected)
        run.info = check_implementation(run.selected, run.loader)
    return run.loader, run.info


class CapabilityGuard:
    """The implementation as the steps see it: reaching for a member of a capability the implementation
    does not declare makes the scenario not applicable (or fails it when that capability is required),
    and every capability used is recorded for the report."""

    def __init__(
        self,
        impl: Implementation,
        declared: frozenset[str],
        required: frozenset[str],
        record: ScenarioOutcome,
    ) -> None:
        self._impl = impl
        self.__wrapped__ = impl  # what probes look through to find the implementation's process
        self._declared = declared
        self._required = required
        self._record = record

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        """``isinstance`` sees the implementation (probes tell a server's implementation by its class)."""
        return type(self._impl)

    def __getattr__(self, member: str) -> Any:
        capability = FACTORY_CAPABILITY.get(member)
        if capability is not None:
            if capability not in self._record.needs:
                self._record.needs = sorted({*self._record.needs, capability})
            if capability not in self._declared:
                offer = f"{self._impl.name} does not offer {capability}"
                if capability in self._required:
                    pytest.fail(f"{offer}, which --synapse-require demands", pytrace=False)
                pytest.skip(f"{NOT_APPLICABLE}{offer}")
        return getattr(self._impl, member)


@pytest.fixture
def synapse(request: pytest.FixtureRequest) -> Implementation:
    """The implementation under test, fresh for every scenario."""
    run = request.config.stash[_run_key]
    loader, info = _prepare(request.config)
    record = run.outcomes.setdefault(request.node.nodeid, ScenarioOutcome("", "", request.node.name))
    try:
        impl = loader()
    except Exception as exc:
        record.status = "errored"
        pytest.fail(f"creating the implementation failed: {type(exc).__name__}: {exc}", pytrace=False)
    guarded = cast(Implementation, CapabilityGuard(impl, info.capabilities, run.required, record))
    return loopback.wrap(request, guarded)


@pytest.fixture(autouse=True)
def _isolated_synapse_environment(request: pytest.FixtureRequest) -> None:
    """No scenario reads the user's ``~/.synapse`` or depends on ``SYNAPSE_*`` settings of the shell."""
    if request.node.nodeid not in request.config.stash[_run_key].outcomes:
        return
    monkeypatch: pytest.MonkeyPatch = request.getfixturevalue("monkeypatch")
    tmp_path_factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
    for name in list(os.environ):
        if name.startswith("SYNAPSE_") and name not in ("SYNAPSE_IMPL", "SYNAPSE_BASELINE"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SYNAPSE_HOME", str(tmp_path_factory.mktemp("synapse-home")))


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Callable[..., object]) -> object:
    """Gherkin tags become markers; register each one so that ``--strict-markers`` accepts it wherever the
    feature files live (a checkout or the installed package)."""
    config = _current_config()
    if config is not None and tag not in {line.split(":")[0] for line in config.getini("markers")}:
        config.addinivalue_line("markers", f"{tag}: Gherkin tag")
    return None


def _current_config() -> pytest.Config | None:
    from pytest_bdd.utils import CONFIG_STACK

    return CONFIG_STACK[-1] if CONFIG_STACK else None


# --------------------------------------------------------------------------------------------------------
# Example IDs: every executed example has its own, also in its pytest id
# --------------------------------------------------------------------------------------------------------


def _template_of(function: object) -> Any | None:
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    if not callable(function):
        return None
    return scenario_wrapper_template_registry.get(function)


def _id_tag(tags: set[str]) -> str | None:
    ids = [tag for tag in tags if SCENARIO_ID.match(tag)]
    return ids[0] if len(ids) == 1 else None


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Name each example of an outline ``CTX-002#<n>`` (1-based, in the order of its Examples) instead of
    its row values, which pytest would otherwise number or join with ``-``."""
    template = _template_of(metafunc.function)
    scenario_id = _id_tag(template.tags) if template is not None else None
    if scenario_id is None or not _requested(metafunc.config):
        return
    markers = metafunc.definition.own_markers
    for index, mark in enumerate(markers):
        if mark.name == "parametrize" and mark.args and mark.args[0] == EXAMPLE_PARAM:
            renamed = [
                pytest.param(*param.values, id=example_id(scenario_id, n), marks=param.marks)
                for n, param in enumerate(mark.args[1], start=1)
            ]
            markers[index] = pytest.mark.parametrize(EXAMPLE_PARAM, renamed).mark
            return
    metafunc.parametrize("synapse_example_id", [scenario_id], ids=[scenario_id])


@pytest.fixture(autouse=True)
def synapse_example_id(request: pytest.FixtureRequest) -> str | None:
    """The example ID of the running scenario (None for tests that are not scenarios)."""
    record = request.config.stash[_run_key].outcomes.get(request.node.nodeid)
    return record.example_id if record is not None else None


# --------------------------------------------------------------------------------------------------------
# Integrity checks at collection time
# --------------------------------------------------------------------------------------------------------


def _scenario_of(item: pytest.Item) -> Any | None:
    """The rendered pytest-bdd scenario behind a test item, or None for plain tests."""
    found = _scenario_and_example(item)
    return found[0] if found is not None else None


def _scenario_and_example(item: pytest.Item) -> tuple[Any, int | None] | None:
    """The rendered pytest-bdd scenario behind a test item and the 1-based index of its example (None
    for a plain scenario), or None for plain tests."""
    template = _template_of(getattr(item, "function", None))
    if template is None:
        return None
    callspec = getattr(item, "callspec", None)
    example = callspec.params.get(EXAMPLE_PARAM) if callspec is not None else None
    index = callspec.indices[EXAMPLE_PARAM] + 1 if callspec is not None and example is not None else None
    return template.render(example or {}), index


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
    run = config.stash[_run_key]
    if not _requested(config):
        return
    problems: list[str] = []
    bound: set[Path] = set()
    owners: dict[str, str] = {}
    step_cache: dict[str, list[tuple[Any, Callable[..., Any]]]] = {}
    for item in items:
        found = _scenario_and_example(item)
        if found is None:
            continue
        scenario, index = found
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
        record = _outcome(item, scenario, scenario_id, index)
        run.outcomes[item.nodeid] = record
        item.extra_keyword_matches.update(
            {scenario_id.replace("-", "_"), record.example_id.replace("-", "_").replace("#", "_")}
        )
        entry = entry_for(run.baseline, record.id, record.example_id)
        record.baseline = entry.as_dict() if entry is not None else None
    for path in _feature_files_in_scope(config):
        if path.resolve() not in bound:
            problems.append(f"{path.relative_to(config.rootpath)}: no test module binds this feature file")
    if problems:
        unique = list(dict.fromkeys(problems))
        raise pytest.UsageError("the executable spec is inconsistent:\n  " + "\n  ".join(unique))
    if not run.outcomes:
        return
    _prepare(config)
    if run.baseline or run.ids:
        _check_names(run, bound)
    if run.ids:
        _select_ids(run, config, items)


def _requested(config: pytest.Config) -> bool:
    """Whether this run checks the spec: the plugin was asked for with ``-p synapse_spec.plugin`` or by a
    conftest's ``pytest_plugins`` (the spec's own conftest does so).  Registered through the entry point
    alone, it leaves other pytest-bdd projects of the same environment alone."""
    run = config.stash[_run_key]
    if not run.requested:
        run.requested = PLUGIN in (config.option.plugins or []) or any(
            declared == PLUGIN or (isinstance(declared, list | tuple) and PLUGIN in declared)
            for declared in (getattr(p, "pytest_plugins", ()) for p in config.pluginmanager.get_plugins())
        )
    return run.requested


def _outcome(item: pytest.Item, scenario: Any, scenario_id: str, index: int | None) -> ScenarioOutcome:
    template = _template_of(getattr(item, "function", None))
    rows = [row for block in template.examples for row in block.as_contexts()] if template else []
    callspec = getattr(item, "callspec", None)
    return ScenarioOutcome(
        scenario_id,
        _feature_label(scenario.feature),
        scenario.name,
        sorted(scenario.tags),
        example_id=example_id(scenario_id, index),
        example=dict(callspec.params.get(EXAMPLE_PARAM) or {}) if callspec is not None else {},
        examples=len(rows),
        area=Path(scenario.feature.filename).parent.name,
    )


def _features_dirs(feature_files: set[Path]) -> set[Path]:
    """The ``features/`` directories the collected feature files belong to."""
    roots = set()
    for path in feature_files:
        parents = [p for p in path.parents if p.name == "features"]
        roots.add(parents[0] if parents else path.parent)
    return roots


def _check_names(run: SpecRun, feature_files: set[Path]) -> None:
    """Baseline entries and ``--synapse-id`` must name scenarios (or examples) of the spec; a subset run
    still knows every scenario of the spec."""
    names: set[str] = set()
    for directory in _features_dirs(feature_files):
        names |= known_ids(read_features(directory))
    unknown_entries = sorted(set(run.baseline) - names)
    if unknown_entries:
        raise pytest.UsageError(
            f"baseline {run.baseline_path} names unknown scenario{'s' if len(unknown_entries) > 1 else ''} "
            f"{', '.join(unknown_entries)}: remove {'them' if len(unknown_entries) > 1 else 'it'} "
            "(`synapse-spec list` shows every ID)"
        )
    unknown_ids = sorted(run.ids - names)
    if unknown_ids:
        raise pytest.UsageError(f"--synapse-id: no scenario or example {', '.join(unknown_ids)}")


def _select_ids(run: SpecRun, config: pytest.Config, items: list[pytest.Item]) -> None:
    selected: list[pytest.Item] = []
    deselected: list[pytest.Item] = []
    for item in items:
        record = run.outcomes.get(item.nodeid)
        wanted = record is not None and (record.id in run.ids or record.example_id in run.ids)
        (selected if wanted else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


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
# Outcomes, baselines, the skipped-scenario rule and the report
# --------------------------------------------------------------------------------------------------------


def _feature_label(feature: Any) -> str:
    return f"{feature.name} ({Path(feature.filename).name})"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    run = item.config.stash[_run_key]
    record = run.outcomes.get(item.nodeid)
    if record is None:
        return report
    record.duration += report.duration
    if record.baseline is not None:
        _apply_baseline(record, report, run.baseline_path)
    _record_outcome(record, report)
    if report.when == "teardown":
        report.user_properties.extend(
            [("synapse.id", record.example_id), ("synapse.status", record.status)]
            + ([("synapse.message", record.message)] if record.message else [])
        )
    return report


def _apply_baseline(record: ScenarioOutcome, report: pytest.TestReport, path: Path | None) -> None:
    """A listed scenario that fails is a known failure; one that passes fails the run as stale."""
    assert record.baseline is not None
    entry = record.baseline["id"]
    if report.failed and report.when in ("setup", "call"):
        record.message = _failure_message(report)
        report.outcome = "skipped"
        report.wasxfail = f"known failure ({entry}): {record.baseline['reason']}"
    elif report.passed and report.when == "call":
        record.stale = True
        report.outcome = "failed"
        report.longrepr = f"stale baseline entry: {stale_advice(record, path)}"


def stale_advice(record: ScenarioOutcome, path: Path | None) -> str:
    assert record.baseline is not None
    entry, where = record.baseline["id"], path or "the baseline"
    if entry == record.example_id:
        return f"{entry} passes now; remove {entry} from {where}"
    return (
        f"{record.example_id} passes now; {where} lists the whole outline {entry}: "
        f"list only the examples that still fail"
    )


def stale_entries(outcomes: list[ScenarioOutcome], path: Path | None) -> list[str]:
    """One line per baseline entry that covers a passing scenario: what to remove or replace."""
    covered: dict[str, list[ScenarioOutcome]] = {}
    for o in outcomes:
        if o.baseline is not None:
            covered.setdefault(o.baseline["id"], []).append(o)
    lines = []
    for entry, records in sorted(covered.items()):
        passing = [o.example_id for o in records if o.stale]
        failing = [o.example_id for o in records if not o.stale and o.status == "known-failure"]
        if not passing:
            continue
        if passing == [entry]:
            lines.append(f"{entry} passes now; remove it from {path}")
        elif not failing:
            lines.append(f"{entry}: every example passes now ({', '.join(passing)}); remove it from {path}")
        else:
            lines.append(
                f"{entry}: {', '.join(passing)} pass now, {', '.join(failing)} still fail; "
                f"in {path}, replace {entry} by {', '.join(failing)}"
            )
    return lines


def _record_outcome(record: ScenarioOutcome, report: pytest.TestReport) -> None:
    if report.passed and report.when == "call":
        record.status = "passed"
    elif report.skipped:
        reason = _skip_reason(report)
        if hasattr(report, "wasxfail"):
            record.status = "known-failure"
        elif reason.startswith(NOT_APPLICABLE):
            record.status, record.message = "not-applicable", reason[len(NOT_APPLICABLE) :]
        else:
            record.status, record.message = "skipped", reason
    elif report.failed:
        if record.stale:
            record.status = "failed"
            record.message = str(report.longrepr)
        elif report.when == "call" and record.status != "errored":
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


def _none_applies(outcomes: list[ScenarioOutcome]) -> bool:
    return bool(outcomes) and all(o.status == "not-applicable" for o in outcomes)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    outcomes = ran(session.config.stash[_run_key].outcomes.values())
    failing = any(o.status == "skipped" for o in outcomes) or _none_applies(outcomes)
    if failing and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    run = config.stash[_run_key]
    outcomes = ran(run.outcomes.values())
    if not outcomes or run.info is None:
        return
    write = terminalreporter.write_line
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        terminalreporter.write_sep("=", "skipped scenarios fail the spec", red=True)
        for o in skipped:
            write(f"{o.example_id} {o.title}: {o.message}")
    stale = stale_entries(outcomes, run.baseline_path)
    if stale:
        terminalreporter.write_sep("=", f"stale baseline entries in {run.baseline_path}", red=True)
        for line in stale:
            write(line)
    if _none_applies(outcomes):
        terminalreporter.write_sep("=", "no scenario applies: nothing was checked", red=True)
        write(
            f"{run.info.name} declares {', '.join(sorted(run.info.capabilities)) or 'no capabilities'}; "
            f"every selected scenario needs another one (known: {', '.join(sorted(CAPABILITIES))})"
        )
    terminalreporter.write_sep("=", f"Synapse spec: {run.info.name} {run.info.version}")
    for line in render_table(outcomes):
        write(line)
    directory = config.getoption("--synapse-report")
    if directory:
        report = build_report(
            outcomes,
            implementation={
                "name": run.info.name,
                "version": run.info.version,
                "selected": run.selected,
                "capabilities": sorted(run.info.capabilities),
            },
            baseline=str(run.baseline_path) if run.baseline_path else None,
        )
        json_path, md_path = write_reports(report, Path(config.invocation_params.dir, directory))
        write(f"reports: {json_path}, {md_path}")


# --------------------------------------------------------------------------------------------------------
# Cucumber JSON (pytest-bdd's --cucumberjson) with honest statuses
# --------------------------------------------------------------------------------------------------------


class _CucumberStatuses:
    """pytest-bdd writes a scenario that skipped in a step as passed steps; this marks the steps of a
    not-applicable scenario as ``skipped`` and the failing step of a known failure as ``pending``, and
    tags the scenario ``synapse-status:<status>``."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        log = getattr(self._config, "_bddcucumberjson", None)
        record = self._config.stash[_run_key].outcomes.get(report.nodeid)
        if log is None or record is None or report.when != "call":
            return
        from pytest_bdd.reporting import test_report_context_registry

        context = test_report_context_registry.get(report)
        if context is None:
            return
        feature = log.features.get(context.scenario["feature"]["filename"])
        elements = [e for e in (feature or {}).get("elements", []) if e.get("id") == context.name]
        for element in elements[-1:]:
            self._mark(element, record)

    @staticmethod
    def _mark(element: dict[str, Any], record: ScenarioOutcome) -> None:
        element["tags"].append({"name": f"synapse-status:{record.status}", "line": element["line"] - 1})
        steps = element.get("steps", [])
        if record.status == "not-applicable":
            for step in steps:
                step["result"] = {"status": "skipped", "duration": 0}
            if steps:
                steps[0]["result"]["error_message"] = f"{NOT_APPLICABLE}{record.message}"
        elif record.status == "known-failure":
            failing = [step["result"] for step in steps if step["result"]["status"] != "passed"]
            for result in failing:
                result["status"] = "skipped"
            if failing:
                failing[0]["status"] = "pending"
                entry = (record.baseline or {}).get("id")
                failing[0]["error_message"] = f"known failure ({entry}): {record.message}"
