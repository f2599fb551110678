"""The harness's own rules: what makes a spec run fail, and what the reports and baselines say."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

CONFTEST = """
import pytest
from pytest_bdd import given, parsers, then

pytest_plugins = ["synapse_spec.plugin"]


@given(parsers.parse('a scripted model named "{name}"'), target_fixture="llm")
def given_llm(synapse, name):
    return synapse.scripted_llm(name)


@then(parsers.parse("the model is named \\"{name}\\""))
def then_named(llm, name):
    assert llm.model_name == name, f"model is named {llm.model_name!r}"


@then("the scenario is skipped")
def then_skip():
    pytest.skip("for no reason")
"""

FEATURE = """\
@reader
Feature: Models
  @MOD-001
  Scenario: a model keeps its name
    Given a scripted model named "m1"
    Then the model is named "m1"

  @MOD-002
  Scenario: a model with the wrong name
    Given a scripted model named "m1"
    Then the model is named "m2"
"""


@pytest.fixture
def spec(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    features = pytester.mkdir("features")
    (features / "models.feature").write_text(FEATURE, encoding="utf-8")
    (features / "test_models.py").write_text('from pytest_bdd import scenarios\n\nscenarios(".")\n')
    return pytester


def run(spec: pytest.Pytester, *args: str) -> pytest.RunResult:
    return spec.runpytest_subprocess("features", "-p", "no:randomly", "-p", "no:cacheprovider", *args)


def report(spec: pytest.Pytester) -> dict[str, object]:
    data: dict[str, object] = json.loads((spec.path / "reports" / "synapse-spec.json").read_text("utf-8"))
    return data


def statuses(spec: pytest.Pytester) -> dict[str, str]:
    scenarios = report(spec)["scenarios"]
    assert isinstance(scenarios, list)
    return {s["id"]: s["status"] for s in scenarios}


def test_report_lists_each_scenario_by_id_with_its_failure_message(spec: pytest.Pytester) -> None:
    result = run(spec)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*Synapse spec: synapse-ref*", "*Models (models.feature)*1*1*"])
    assert statuses(spec) == {"MOD-001": "passed", "MOD-002": "failed"}
    markdown = (spec.path / "reports" / "synapse-spec.md").read_text("utf-8")
    assert "| MOD-002 | a model with the wrong name | failed | " in markdown
    assert "model is named 'm1'" in markdown


def test_a_step_without_definition_fails_the_run(spec: pytest.Pytester) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(FEATURE + "\n  @MOD-003\n  Scenario: undefined\n    Given nobody defined this\n")
    result = run(spec)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*models.feature:15: no step definition for given 'nobody defined this'*"])


def test_two_matching_definitions_fail_the_run(spec: pytest.Pytester) -> None:
    spec.makepyfile(
        steps_extra=textwrap.dedent(
            """
            from pytest_bdd import parsers, then

            @then(parsers.parse('the model is named "{anything}"'))
            def then_other(anything):
                pass
            """
        )
    )
    conftest = spec.path / "conftest.py"
    conftest.write_text(
        conftest.read_text().replace('["synapse_spec.plugin"]', '["synapse_spec.plugin", "steps_extra"]')
    )
    result = run(spec)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*is matched by several definitions: conftest.then_named, steps_extra.then_other*"]
    )


def test_a_feature_file_nothing_binds_fails_the_run(spec: pytest.Pytester) -> None:
    (spec.path / "features" / "test_models.py").write_text(
        'from pytest_bdd import scenarios\n\nscenarios("models.feature")\n'
    )
    (spec.path / "features" / "orphans").mkdir()
    (spec.path / "features" / "orphans" / "lonely.feature").write_text(FEATURE.replace("MOD-00", "LON-00"))
    result = run(spec)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*features/orphans/lonely.feature: no test module binds this feature file*"])


def test_a_skipped_scenario_fails_the_run(spec: pytest.Pytester) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(
        FEATURE.split("  @MOD-002")[0] + "  @MOD-002\n  Scenario: skipped\n    Then the scenario is skipped\n"
    )
    result = run(spec)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*skipped scenarios fail the spec*", "MOD-002 skipped: for no reason"])


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ("", "needs exactly one ID tag like @CTX-001, has []"),
        ("@MOD-001", "ID @MOD-001 is already used at models.feature"),
    ],
)
def test_scenario_ids_are_required_and_unique(spec: pytest.Pytester, tags: str, message: str) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(FEATURE.replace("  @MOD-002\n", f"  {tags}\n"))
    result = run(spec)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def write_baseline(spec: pytest.Pytester, *ids: str) -> Path:
    entries = [
        {"id": i, "reason": "not built yet", "link": "https://example.org/1", "date": "2026-11-01"}
        for i in ids
    ]
    path = spec.path / "baseline.json"
    path.write_text(json.dumps({"implementation": "synapse-ref", "known_failures": entries}))
    return path


def test_a_baseline_turns_listed_failures_into_known_failures(spec: pytest.Pytester) -> None:
    result = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-002')}")
    assert result.ret == pytest.ExitCode.OK
    assert statuses(spec) == {"MOD-001": "passed", "MOD-002": "known-failure"}


def test_a_stale_baseline_entry_fails_the_run(spec: pytest.Pytester) -> None:
    result = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-001', 'MOD-002')}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    scenarios = report(spec)["scenarios"]
    assert isinstance(scenarios, list)
    stale = next(s for s in scenarios if s["id"] == "MOD-001")
    assert stale["status"] == "failed"
    assert "stale baseline entry: MOD-001 passes now" in stale["message"]


def test_a_baseline_naming_an_unknown_scenario_is_an_error(spec: pytest.Pytester) -> None:
    result = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-002', 'XYZ-999')}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*baseline lists IDs that name no scenario of the spec: XYZ-999*"])


def test_baseline_command_writes_failures_from_a_report(spec: pytest.Pytester) -> None:
    run(spec)
    result = spec.run(
        sys.executable, "-m", "synapse_spec.baseline", "--report", "reports/synapse-spec.json", "-o", "b.json"
    )
    assert result.ret == 0, result.stderr.str()
    entries = json.loads((spec.path / "b.json").read_text())["known_failures"]
    assert [e["id"] for e in entries] == ["MOD-002"]
    assert "model is named 'm1'" in entries[0]["reason"]


def test_scenarios_needing_a_missing_capability_are_not_applicable_unless_required(
    spec: pytest.Pytester,
) -> None:
    spec.makepyfile(
        limited_impl=textwrap.dedent(
            """
            from synapse_ref.adapter import ReferenceImplementation

            class Limited(ReferenceImplementation):
                capabilities = frozenset({"context"})

            implementation = Limited
            """
        )
    )
    result = run(spec, "--synapse-impl=limited_impl")
    assert result.ret == pytest.ExitCode.OK
    assert statuses(spec) == {"MOD-001": "not-applicable", "MOD-002": "not-applicable"}

    demanded = run(spec, "--synapse-impl=limited_impl", "--synapse-require=context,reader")
    assert demanded.ret == pytest.ExitCode.TESTS_FAILED
    demanded.stdout.fnmatch_lines(["*does not offer reader, which --synapse-require demands*"])
    assert statuses(spec) == {"MOD-001": "failed", "MOD-002": "failed"}
    assert (
        run(spec, "--synapse-impl=limited_impl", "--synapse-require=all").ret == pytest.ExitCode.TESTS_FAILED
    )
    unknown = run(spec, "--synapse-require=readers")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(["*unknown capabilities readers*"])


@pytest.mark.parametrize(
    ("selected", "message"),
    [
        ("no_such_module_xyz", "cannot import 'no_such_module_xyz'"),
        ("synapse_ref.adapter:nothing", "module 'synapse_ref.adapter' has no attribute 'nothing'"),
    ],
)
def test_a_bad_implementation_option_is_a_usage_error(
    spec: pytest.Pytester, selected: str, message: str
) -> None:
    result = run(spec, f"--synapse-impl={selected}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])
