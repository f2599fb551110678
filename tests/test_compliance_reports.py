"""The committed compliance reports still match the spec: CI cannot rerun the originals, so it checks the
reports instead.  Every scenario a report names must still exist, and every one that did not pass must be
classified; scenarios added since the run are listed as not yet run, which is no failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.compliance import ROOT, check, classified_ids, example_counts, reports, spec_ids

REPORTS = reports(ROOT / "compliance")


def test_the_overtone_report_is_committed() -> None:
    assert ROOT / "compliance" / "overtone" in REPORTS


@pytest.mark.parametrize("report_dir", REPORTS, ids=lambda p: p.name)
def test_report_matches_the_spec(report_dir: Path) -> None:
    result = check(report_dir, ROOT / "features")
    assert not result.unknown, f"{report_dir.name} names scenarios the spec no longer has: {result.unknown}"
    assert not result.unclassified, (
        f"compliance/{report_dir.name}.md should classify every scenario that did not pass: "
        f"{result.unclassified}"
    )
    assert not result.classified_but_passing, (
        f"compliance/{report_dir.name}.md classifies scenarios that pass or do not apply: "
        f"{result.classified_but_passing}"
    )
    ran = {s["id"] for s in result.report["scenarios"]}
    assert set(result.not_yet_run).isdisjoint(ran)
    assert set(result.not_yet_run) | ran >= set(spec_ids(ROOT / "features")) - ran


@pytest.mark.parametrize("report_dir", REPORTS, ids=lambda p: p.name)
def test_report_records_the_original_commit(report_dir: Path) -> None:
    report = json.loads((report_dir / "synapse-spec.json").read_text(encoding="utf-8"))
    version = report["implementation"]["version"]
    assert len(version) == 40 and all(c in "0123456789abcdef" for c in version), (
        f"the report of {report_dir.name} should carry the original's full commit as its version, "
        f"got {version!r}"
    )


def test_new_scenarios_are_not_yet_run_and_unknown_ones_are_caught(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    (features / "a.feature").write_text(
        "@workflow\nFeature: f\n\n  @WF-001\n  Scenario: one\n    Given x\n\n"
        "  @WF-002\n  Scenario Outline: two\n    Given <x>\n\n    Examples:\n      | x |\n      | 1 |\n",
        encoding="utf-8",
    )
    run = tmp_path / "compliance" / "orig"
    run.mkdir(parents=True)
    scenarios = [
        {"id": "WF-001", "feature": "f", "title": "one", "tags": [], "status": "failed", "message": ""},
        {"id": "WF-900", "feature": "f", "title": "gone", "tags": [], "status": "passed", "message": ""},
    ]
    (run / "synapse-spec.json").write_text(
        json.dumps({"implementation": {"name": "o", "version": "1"}, "summary": {}, "scenarios": scenarios}),
        encoding="utf-8",
    )
    result = check(run, features)
    assert result.unknown == ["WF-900"]
    assert result.not_yet_run == ["WF-002"]
    assert result.unclassified == ["WF-001"]
    (tmp_path / "compliance" / "orig.md").write_text(
        "| id | classification |\n|---|---|\n| WF-001 | bug in the original: x.js `f`: evidence |\n",
        encoding="utf-8",
    )
    assert check(run, features).unclassified == []
    assert classified_ids("| WF-003, WF-004 | harness limitation |") == {
        "WF-003": "harness limitation",
        "WF-004": "harness limitation",
    }


def test_outline_examples_are_named_and_classified_one_by_one(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    (features / "a.feature").write_text(
        "@workflow\nFeature: f\n\n  @WF-002\n  Scenario Outline: two <x>\n    Given <x>\n\n"
        "    Examples:\n      | x |\n      | 1 |\n      | 2 |\n",
        encoding="utf-8",
    )
    assert example_counts(features) == {"WF-002": 2}
    run = tmp_path / "compliance" / "orig"
    run.mkdir(parents=True)

    def report(*rows: tuple[str, str]) -> None:
        scenarios = [
            {"id": i, "feature": "f", "title": "t", "tags": [], "status": s, "message": ""} for i, s in rows
        ]
        (run / "synapse-spec.json").write_text(
            json.dumps(
                {"implementation": {"name": "o", "version": "1"}, "summary": {}, "scenarios": scenarios}
            ),
            encoding="utf-8",
        )

    doc = tmp_path / "compliance" / "orig.md"
    doc.write_text("| WF-002#2 | seed overrides the original: line 1 |\n", encoding="utf-8")
    report(("WF-002#1", "passed"), ("WF-002#2", "failed"), ("WF-002#3", "passed"))
    result = check(run, features)
    assert result.unknown == ["WF-002#3"]
    assert result.unclassified == []
    report(("WF-002#1", "failed"), ("WF-002#2", "passed"))
    result = check(run, features)
    assert result.unclassified == ["WF-002#1"]
    assert result.classified_but_passing == ["WF-002#2"]
    # a divergence that depends on a race may pass in one run: its row says so and is not flagged
    doc.write_text("| WF-002#2 | bug in the original | intermittent: a race |\n", encoding="utf-8")
    assert check(run, features).classified_but_passing == []
    doc.write_text("| WF-002#2 | seed overrides the original: line 1 |\n", encoding="utf-8")
    # the kit's own reports keep the scenario's ID and name the example apart
    scenarios = [
        {"id": "WF-002", "example_id": f"WF-002#{n}", "feature": "f", "title": "t", "tags": [], "status": s}
        for n, s in ((1, "passed"), (2, "failed"))
    ]
    (run / "synapse-spec.json").write_text(
        json.dumps({"implementation": {"name": "o", "version": "1"}, "summary": {}, "scenarios": scenarios}),
        encoding="utf-8",
    )
    result = check(run, features)
    assert (result.unclassified, result.classified_but_passing) == ([], [])
    # a report without example numbers: the example's row classifies its scenario's failing rows
    report(("WF-002", "passed"), ("WF-002", "failed"))
    assert check(run, features).unclassified == []
