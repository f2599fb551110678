"""The semantic mutant set stays usable while ``synapse_ref`` changes underneath it.

Quick: nothing here runs the spec.  Every mutant must be importable, declare the feature areas it
reaches and the blind spot it probes, and give an implementation the contract accepts, so that a
refactoring of the reference shows up here instead of as INVALID mutants in a long run.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from synapse_spec import contract
from tools.mutation.semantic_runner import (
    FEATURE_AREAS,
    INVALID,
    KILLED,
    SURVIVED,
    SemanticMutant,
    Verdict,
    discover,
    discover_controls,
    score,
    syntactic_score,
)

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = discover(ROOT)


def test_the_set_is_large_and_spread_over_every_area() -> None:
    assert len(MUTANTS) >= 40
    reached = {area for m in MUTANTS for area in m.areas}
    assert reached == set(FEATURE_AREAS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_mutant_is_documented_and_plugs_in(mutant: SemanticMutant) -> None:
    assert mutant.areas and set(mutant.areas) <= set(FEATURE_AREAS), mutant.areas
    assert mutant.pattern != "?" and mutant.summary, "a mutant says what it breaks and which pattern"
    module = importlib.import_module(f"tools.mutation.semantic.{mutant.name}")
    before = _reference_globals()
    implementation = module.implementation()
    assert _reference_globals() == before, "building a mutant must not change the reference's modules"
    assert isinstance(implementation, contract.Implementation)
    assert implementation.name.endswith(mutant.name)


def _reference_globals() -> dict[str, dict[str, int]]:
    """Every module-level binding of the loaded reference modules, by object identity: a mutant that
    patched one would break every later run of the spec in the same process."""
    return {
        name: {key: id(value) for key, value in vars(module).items()}
        for name, module in list(sys.modules.items())
        if name.startswith("synapse_ref") and module is not None
    }


def test_invalid_mutants_are_left_out_of_the_score() -> None:
    m = MUTANTS[0]
    verdicts = [Verdict(m, KILLED, 1.0), Verdict(m, SURVIVED, 1.0), Verdict(m, INVALID, 1.0)]
    assert score(verdicts) == (1, 2)


def test_the_syntactic_score_is_read_from_the_survivors_file() -> None:
    assert syntactic_score(ROOT) is not None


# What a mutant imports to rebuild a component, and the control that rebuilds it with no rule changed.
REBUILT = {
    "tools.mutation.semantic._runner": "_baseline_loop",
    "tools.mutation.semantic._sanitizer": "_baseline_sanitizer",
    "tools.mutation.semantic._orchestrator": "_baseline_orchestrator",
    "tools.mutation.semantic._sf_compactor": "_baseline_orchestrator",
    "OffloadManager": "_baseline_offload",
}


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_that_rebuilds_a_component_names_its_control(mutant: SemanticMutant) -> None:
    source = (ROOT / "tools" / "mutation" / "semantic" / f"{mutant.name}.py").read_text(encoding="utf-8")
    wanted = {control for marker, control in REBUILT.items() if marker in source}
    assert wanted == ({mutant.baseline} if mutant.baseline else set()), (
        f"{mutant.name} rebuilds {sorted(wanted)} and names BASELINE = {mutant.baseline!r}"
    )


def test_every_control_declares_its_areas() -> None:
    controls = discover_controls(ROOT)
    assert set(REBUILT.values()) <= set(controls)
    for control in controls.values():
        assert control.areas != FEATURE_AREAS and set(control.areas) <= set(FEATURE_AREAS), control.name


def test_a_failing_control_keeps_its_mutants_from_counting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.mutation import semantic_runner

    ran: list[str] = []

    def fake_run(root: Path, mutant: SemanticMutant, full: bool, timeout: float, scratch: Path) -> Verdict:
        ran.append(mutant.name)
        if mutant.name == "_baseline_loop":
            return Verdict(mutant, KILLED, 0.0, "FAILED features/agent/x::y")
        return Verdict(mutant, SURVIVED if mutant.name.startswith("_") else KILLED, 0.0)

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(semantic_runner, "run_one", fake_run)
    code = semantic_runner.main(
        [
            "--only",
            "runner_failures_per_result",
            "--only",
            "sanitizer_keeps_text",
            "--only",
            "wf_env_session_wins",
        ]
    )
    out = capsys.readouterr()
    assert code == 2
    assert sorted(ran) == [
        "_baseline_loop",
        "_baseline_sanitizer",
        "sanitizer_keeps_text",
        "wf_env_session_wins",
    ]
    assert "runner_failures_per_result  INVALID" in out.out
    assert "FAILS    _baseline_loop" in out.err
