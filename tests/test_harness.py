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


@then("a conversation reader can be built")
def then_reader(synapse):
    assert synapse.conversation_reader() is not None


@then(parsers.parse('the model named "{name}" is "{expected}"'))
def then_outline(llm, name, expected):
    assert name == expected, f"{name} is not {expected}"
"""

OUTLINE = """
  @MOD-003
  Scenario Outline: outline examples
    Given a scripted model named "<name>"
    Then the model named "<name>" is "<expected>"

    Examples:
      | name | expected |
      | a    | a        |
      | b    | c        |
      | d    | d        |
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
    result.stderr.fnmatch_lines(
        ["ERROR: baseline */baseline.json names unknown scenario XYZ-999: remove it*"]
    )
    assert "inconsistent" not in result.stderr.str()


def test_baseline_command_writes_failures_from_a_report(spec: pytest.Pytester) -> None:
    run(spec)
    result = spec.run(
        sys.executable, "-m", "synapse_spec.baseline", "--report", "reports/synapse-spec.json", "-o", "b.json"
    )
    assert result.ret == 0, result.stderr.str()
    entries = json.loads((spec.path / "b.json").read_text())["known_failures"]
    assert [e["id"] for e in entries] == ["MOD-002"]
    assert "model is named 'm1'" in entries[0]["reason"]


def test_scenarios_using_a_capability_the_implementation_lacks_are_not_applicable_unless_required(
    spec: pytest.Pytester,
) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(
        FEATURE.replace('    Then the model is named "m2"\n', "    Then a conversation reader can be built\n")
    )
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
    assert statuses(spec) == {"MOD-001": "passed", "MOD-002": "not-applicable"}
    needs = {s["id"]: s["needs"] for s in report(spec)["scenarios"]}  # type: ignore[attr-defined]
    assert needs == {"MOD-001": [], "MOD-002": ["reader"]}

    demanded = run(spec, "--synapse-impl=limited_impl", "--synapse-require=context,reader")
    assert demanded.ret == pytest.ExitCode.TESTS_FAILED
    demanded.stdout.fnmatch_lines(["*does not offer reader, which --synapse-require demands*"])
    assert statuses(spec) == {"MOD-001": "passed", "MOD-002": "failed"}
    unknown = run(spec, "--synapse-require=readers")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(["*unknown capabilities readers*"])


def test_a_run_in_which_no_scenario_applies_fails(spec: pytest.Pytester) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(
        FEATURE.split("  @MOD-002")[0].replace(
            '    Then the model is named "m1"\n', "    Then a conversation reader can be built\n"
        )
    )
    spec.makepyfile(
        limited_impl="from synapse_ref.adapter import ReferenceImplementation\n\n"
        "class Limited(ReferenceImplementation):\n    capabilities = frozenset({'context'})\n\n"
        "implementation = Limited\n"
    )
    result = run(spec, "--synapse-impl=limited_impl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*no scenario applies: nothing was checked*", "synapse-ref declares context;*"]
    )


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        (
            'frozenset({"readers"})',
            "unknown capability 'readers' (known: bash-tool, context, llm-http, reader, *",
        ),
        ('"reader"', "synapse-ref: capabilities must be a set of names such as *, not str 'reader'"),
        ('frozenset({"agent"})', "capability 'agent' was split into runner, sanitizer, stop-hooks*"),
        ('frozenset({"reader", "runner"})', "declares capability runner but has no agent_runner"),
    ],
)
def test_what_an_implementation_declares_is_checked_once_up_front(
    spec: pytest.Pytester, declared: str, message: str
) -> None:
    spec.makepyfile(
        declared_impl=textwrap.dedent(
            f"""
            from synapse_ref.adapter import ReferenceImplementation

            class Declared(ReferenceImplementation):
                capabilities = {declared}
                agent_runner = property(lambda self: (_ for _ in ()).throw(AttributeError("agent_runner")))

            implementation = Declared
            """
        )
    )
    result = run(spec, "--synapse-impl=declared_impl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])
    assert result.stderr.str().count("ERROR") == 1


def test_an_implementation_factory_that_raises_errors_that_scenario(spec: pytest.Pytester) -> None:
    spec.makepyfile(
        flaky_impl=textwrap.dedent(
            """
            from synapse_ref.adapter import ReferenceImplementation

            calls = []

            def implementation():
                calls.append(1)
                if len(calls) == 3:
                    raise RuntimeError("out of handles")
                return ReferenceImplementation()
            """
        )
    )
    result = run(spec, "--synapse-impl=flaky_impl")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    scenarios = report(spec)["scenarios"]
    assert isinstance(scenarios, list)
    assert [s["status"] for s in scenarios] == ["passed", "errored"]
    assert "creating the implementation failed: RuntimeError: out of handles" in scenarios[1]["message"]


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


def with_outline(spec: pytest.Pytester) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(FEATURE + OUTLINE, encoding="utf-8")


def test_every_example_of_an_outline_has_its_own_id(spec: pytest.Pytester) -> None:
    with_outline(spec)
    result = run(spec, "--co", "-q")
    result.stdout.fnmatch_lines(
        [
            "features/test_models.py::test_a_model_keeps_its_name[[]MOD-001[]]",
            "features/test_models.py::test_outline_examples[[]MOD-003#1[]]",
            "features/test_models.py::test_outline_examples[[]MOD-003#2[]]",
            "features/test_models.py::test_outline_examples[[]MOD-003#3[]]",
        ]
    )
    for selection, count in (("-k MOD_003", 3), ("-k MOD-003", 3), ("-k MOD_003_2", 1)):
        run(spec, "--co", "-q", *selection.split()).stdout.fnmatch_lines([f"{count}/5 tests collected*"])
    run(spec, "--co", "-q", "--synapse-id=MOD-003#2,MOD-001").stdout.fnmatch_lines(["2/5 tests collected*"])
    result = run(spec)
    scenarios = report(spec)["scenarios"]
    assert isinstance(scenarios, list)
    assert [(s["example_id"], s["status"]) for s in scenarios] == [
        ("MOD-001", "passed"),
        ("MOD-002", "failed"),
        ("MOD-003#1", "passed"),
        ("MOD-003#2", "failed"),
        ("MOD-003#3", "passed"),
    ]
    assert scenarios[3]["example"] == {"name": "b", "expected": "c"}
    assert scenarios[3]["examples"] == 3


def test_a_baseline_entry_names_a_whole_outline_or_one_example(spec: pytest.Pytester) -> None:
    with_outline(spec)
    one = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-002', 'MOD-003#2')}")
    assert one.ret == pytest.ExitCode.OK
    assert statuses(spec)["MOD-003"] == "passed"  # the last example of MOD-003 in the report
    whole = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-002', 'MOD-003')}")
    assert whole.ret == pytest.ExitCode.TESTS_FAILED
    whole.stdout.fnmatch_lines(
        [
            "*= stale baseline entries in *baseline.json =*",
            "MOD-003: MOD-003#1, MOD-003#3 pass now, MOD-003#2 still fail; "
            "in *baseline.json, replace MOD-003 by MOD-003#2",
        ]
    )
    both = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-003', 'MOD-003#2')}")
    assert both.ret == pytest.ExitCode.USAGE_ERROR
    both.stderr.fnmatch_lines(["*MOD-003#2 is listed, and so is its whole outline MOD-003; keep one*"])
    unknown = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-003#4')}")
    unknown.stderr.fnmatch_lines(["*names unknown scenario MOD-003#4*"])


def test_a_stale_entry_is_named_in_the_terminal_summary(spec: pytest.Pytester) -> None:
    result = run(spec, f"--synapse-baseline={write_baseline(spec, 'MOD-001', 'MOD-002')}")
    result.stdout.fnmatch_lines(
        [
            "*= stale baseline entries in *baseline.json =*",
            "MOD-001 passes now; remove it from *baseline.json",
        ]
    )
    assert "XPASS" not in result.stdout.str()


def test_junit_and_cucumber_keep_not_applicable_and_known_failures_apart(spec: pytest.Pytester) -> None:
    feature = spec.path / "features" / "models.feature"
    feature.write_text(
        FEATURE + '\n  @MOD-004\n  Scenario: reader\n    Given a scripted model named "m1"\n'
        "    Then a conversation reader can be built\n"
    )
    spec.makepyfile(
        limited_impl="from synapse_ref.adapter import ReferenceImplementation\n\n"
        "class Limited(ReferenceImplementation):\n    capabilities = frozenset({'context'})\n\n"
        "implementation = Limited\n"
    )
    baseline = write_baseline(spec, "MOD-002")
    result = run(
        spec,
        "--synapse-impl=limited_impl",
        f"--synapse-baseline={baseline}",
        "--junitxml=junit.xml",
        "--cucumberjson=cucumber.json",
    )
    assert result.ret == pytest.ExitCode.OK
    junit = (spec.path / "junit.xml").read_text("utf-8")
    for example, status in (
        ("MOD-001", "passed"),
        ("MOD-002", "known-failure"),
        ("MOD-004", "not-applicable"),
    ):
        properties = f'<property name="synapse.id" value="{example}" />'
        assert f'{properties}<property name="synapse.status" value="{status}"' in junit
    cucumber = json.loads((spec.path / "cucumber.json").read_text("utf-8"))
    steps = {
        element["id"]: (
            [t["name"] for t in element["tags"] if t["name"].startswith("synapse-status")],
            [step["result"]["status"] for step in element["steps"]],
        )
        for element in cucumber[0]["elements"]
    }
    assert steps == {
        "test_a_model_keeps_its_name[MOD-001]": (["synapse-status:passed"], ["passed", "passed"]),
        "test_a_model_with_the_wrong_name[MOD-002]": (
            ["synapse-status:known-failure"],
            ["passed", "pending"],
        ),
        "test_reader[MOD-004]": (["synapse-status:not-applicable"], ["skipped", "skipped"]),
    }


def test_every_member_of_the_implementation_belongs_to_one_capability_or_to_every_implementation() -> None:
    from synapse_spec.contract import CAPABILITY_FACTORIES, HttpLLMClientFactory, Implementation

    always = {"name", "version", "capabilities", "scripted_llm"}
    members = {
        m for proto in (Implementation, HttpLLMClientFactory) for m in vars(proto) if not m.startswith("_")
    }
    owners = [m for factories in CAPABILITY_FACTORIES.values() for m in factories]
    assert len(owners) == len(set(owners))
    assert set(owners) | always == members


def test_installed_alone_the_plugin_leaves_other_bdd_projects_alone(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        "from pytest_bdd import given, then\n\n"
        "@given('nothing')\ndef nothing():\n    pass\n\n@then('all is well')\ndef well():\n    pass\n"
    )
    (pytester.path / "other.feature").write_text(
        "Feature: another project\n  Scenario: no ID tag\n    Given nothing\n    Then all is well\n"
    )
    pytester.makepyfile(test_other='from pytest_bdd import scenarios\n\nscenarios("other.feature")\n')
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider", "--co", "-q")
    result.stdout.fnmatch_lines(["test_other.py::test_no_id_tag"])
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.OK
    assert not (pytester.path / "reports").exists()
    assert "Synapse spec" not in result.stdout.str()


def test_the_wire_protocols_hello_schema_names_exactly_the_contracts_capabilities() -> None:
    from synapse_spec.contract import CAPABILITIES

    schema = json.loads(
        (Path(__file__).parent.parent / "synapse_spec/protocol/schemas/hello.schema.json").read_text("utf-8")
    )

    def enums(node: object) -> list[list[str]]:
        if isinstance(node, dict):
            found = [enums(v) for k, v in node.items() if k != "enum"]
            if "capabilities" in node and isinstance(node["capabilities"], dict):
                return [node["capabilities"]["items"]["enum"]]
            return [e for sub in found for e in sub]
        if isinstance(node, list):
            return [e for sub in node for e in enums(sub)]
        return []

    assert [sorted(e) for e in enums(schema)] == [sorted(CAPABILITIES)]
