"""The semantic mutant set stays usable while ``synapse_ref`` changes underneath it.

Quick: nothing here runs the spec.  Every mutant must be importable, declare the feature areas it
reaches and the blind spot it probes, and give an implementation the contract accepts, so that a
refactoring of the reference shows up here instead of as INVALID mutants in a long run.
"""

from __future__ import annotations

import importlib
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
    implementation = module.implementation()
    assert isinstance(implementation, contract.Implementation)
    assert implementation.name.endswith(mutant.name)


def test_invalid_mutants_are_left_out_of_the_score() -> None:
    m = MUTANTS[0]
    verdicts = [Verdict(m, KILLED, 1.0), Verdict(m, SURVIVED, 1.0), Verdict(m, INVALID, 1.0)]
    assert score(verdicts) == (1, 2)


def test_the_syntactic_score_is_read_from_the_survivors_file() -> None:
    assert syntactic_score(ROOT) is not None
