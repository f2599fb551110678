"""The table of several implementations' reports: areas from the feature files, one row per report."""

from __future__ import annotations

import json
from pathlib import Path

from synapse_spec.report import ScenarioOutcome, build_report, write_reports
from synapse_spec.summary import main, render, write_between_markers


def _report(*rows: tuple[str, str, str]) -> dict[str, object]:
    return {
        "implementation": {"name": "impl", "version": "1"},
        "scenarios": [{"id": i, "feature": f"Title ({feature})", "status": s} for i, feature, s in rows],
    }


def _features(tmp_path: Path) -> Path:
    for area, name in (("reader", "a.feature"), ("session", "b.feature")):
        (tmp_path / "features" / area).mkdir(parents=True, exist_ok=True)
        (tmp_path / "features" / area / name).write_text("Feature: x\n", encoding="utf-8")
    return tmp_path / "features"


def test_rows_count_each_status_per_area(tmp_path: Path) -> None:
    report = _report(
        ("RDR-001", "a.feature", "passed"),
        ("RDR-002", "a.feature", "failed"),
        ("SES-001", "b.feature", "not-applicable"),
        ("SES-002", "b.feature", "errored"),
        ("SES-003", "b.feature", "skipped"),
    )
    lines = render([("one", report)], _features(tmp_path))
    assert lines[0] == "| implementation | reader | session | total |"
    assert lines[2] == "| one | 1 / 1 / 0 / 0 / 0 | 0 / 1 / 1 / 1 / 0 | 1 / 2 / 1 / 1 / 0 |"


def test_an_area_a_report_lacks_shows_a_dash_and_an_explicit_area_wins(tmp_path: Path) -> None:
    first = _report(("RDR-001", "a.feature", "passed"))
    second = {"implementation": {}, "scenarios": [{"id": "X-001", "area": "session", "status": "passed"}]}
    lines = render([("first", first), ("second", second)], _features(tmp_path))
    assert lines[2] == "| first | 1 / 0 / 0 / 0 / 0 | — | 1 / 0 / 0 / 0 / 0 |"
    assert lines[3] == "| second | — | 1 / 0 / 0 / 0 / 0 | 1 / 0 / 0 / 0 / 0 |"


def test_write_replaces_only_the_table_between_the_markers(tmp_path: Path) -> None:
    target = tmp_path / "README.md"
    target.write_text("# Compliance\n\nintro\n", encoding="utf-8")
    write_between_markers(target, ["old"])
    write_between_markers(target, ["new"])
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Compliance\n\nintro\n")
    assert "new" in text and "old" not in text


def test_the_command_labels_rows_and_writes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_report(("RDR-001", "a.feature", "passed"))), encoding="utf-8")
    target = tmp_path / "README.md"
    assert main([f"mine={path}", str(path), "--write", str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert "| mine |" in text and "| impl 1 |" in text


def test_a_failure_message_quoting_half_a_utf16_pair_is_written_and_reads_back(tmp_path: Path) -> None:
    """An implementation that cuts text in UTF-16 units shows up in a message with a lone surrogate."""
    half = "\ud83d"
    outcome = ScenarioOutcome(
        id="RDR-028", feature="Reader (a.feature)", title="t", status="failed", message=f"got '{half}' | x"
    )
    report = build_report([outcome], implementation={"name": "impl", "version": "1"}, baseline=None)
    json_path, md_path = write_reports(report, tmp_path / "out")
    assert json.loads(json_path.read_text(encoding="utf-8"))["scenarios"][0]["message"] == f"got '{half}' | x"
    assert "got '\\ud83d'" in md_path.read_text(encoding="utf-8")
