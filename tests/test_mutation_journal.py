"""The mutation run's journal: a run stopped part way keeps its outcomes and ``--resume`` goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.mutation.__main__ import main
from tools.mutation.journal import (
    Journal,
    JournalError,
    fingerprint,
    journal_path,
    read_journal,
    split_done,
)
from tools.mutation.operators import ModuleMutator
from tools.mutation.runner import KILLED, NOT_RUN, SURVIVED, TIMEOUT, Outcome, Prepared, prepare

SOURCE = 'def limit(text):\n    if len(text) > 10:\n        return "long"\n    return "short"\n'
MODULE = "synapse_ref/limit.py"


def _project(root: Path) -> None:
    (root / "synapse_ref").mkdir(parents=True)
    (root / "synapse_ref" / "limit.py").write_text(SOURCE, encoding="utf-8")
    (root / "features").mkdir()
    (root / "features" / "limit.feature").write_text("Feature: limit\n", encoding="utf-8")
    (root / "pyproject.toml").write_text("", encoding="utf-8")


@pytest.fixture
def no_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A tiny project as the working directory, and the options pointing the tool at no equivalent,
    scope or free-wording entries."""
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    missing = str(tmp_path / "none.toml")
    return ["--equivalent", str(tmp_path / "none"), "--scope", missing, "--free-wording", missing]


def _prepared() -> list[Prepared]:
    mutator = ModuleMutator(MODULE, SOURCE)
    ready, invalid = prepare({MODULE: mutator}, mutator.mutants)
    assert ready and not invalid
    return ready


def test_outcomes_read_back_are_the_ones_recorded_and_are_not_run_again(tmp_path: Path) -> None:
    ready = _prepared()
    path = tmp_path / "run.json.journal.jsonl"
    journal = Journal(path, "tree-1", resume=False)
    journal.record(Outcome(ready[0].mutant, KILLED, 1.5, 3, "exit code 1"))
    journal.record(Outcome(ready[1].mutant, NOT_RUN))  # never started: not a result
    journal.record(Outcome(ready[2].mutant, SURVIVED, 2.0, 4))
    journal.close(remove=False)
    back = read_journal(path, "tree-1")
    assert [(o.mutant.id, o.status, o.seconds, o.tests, o.detail) for o in back] == [
        (ready[0].mutant.id, KILLED, 1.5, 3, "exit code 1"),
        (ready[2].mutant.id, SURVIVED, 2.0, 4, ""),
    ]
    kept, remaining = split_done(ready, back)
    assert [o.mutant.id for o in kept] == [ready[0].mutant.id, ready[2].mutant.id]
    assert [p.mutant.id for p in remaining] == [p.mutant.id for n, p in enumerate(ready) if n not in (0, 2)]


def _journal_of_one_kill(path: Path, ready: list[Prepared]) -> None:
    journal = Journal(path, "tree", resume=False)
    journal.record(Outcome(ready[0].mutant, KILLED, 1.0))
    journal.close(remove=False)


def test_a_journaled_mutant_whose_text_changed_runs_again(tmp_path: Path) -> None:
    ready = _prepared()
    path = tmp_path / "j.jsonl"
    _journal_of_one_kill(path, ready)
    lines = path.read_text(encoding="utf-8").splitlines()
    raw = json.loads(lines[1])
    raw["mutated"] += "  # another mutant at the same place"
    path.write_text(lines[0] + "\n" + json.dumps(raw) + "\n", encoding="utf-8")
    kept, remaining = split_done(ready, read_journal(path, "tree"))
    assert kept == [] and len(remaining) == len(ready)


def test_a_journal_of_another_tree_or_options_is_refused(tmp_path: Path) -> None:
    _project(tmp_path)
    before = fingerprint(tmp_path, {"timeout_factor": 10.0})
    assert fingerprint(tmp_path, {"timeout_factor": 10.0}) == before
    assert fingerprint(tmp_path, {"timeout_factor": 3.0}) != before
    (tmp_path / "features" / "limit.feature").write_text("Feature: limit, sharper\n", encoding="utf-8")
    after = fingerprint(tmp_path, {"timeout_factor": 10.0})
    assert after != before
    path = tmp_path / "j.jsonl"
    Journal(path, before, resume=False).close(remove=False)
    with pytest.raises(JournalError, match="another tree or other options"):
        read_journal(path, after)
    with pytest.raises(JournalError, match="no journal"):
        read_journal(tmp_path / "missing.jsonl", after)
    (tmp_path / "other.jsonl").write_text('{"something": "else"}\n', encoding="utf-8")
    with pytest.raises(JournalError, match="not a mutation journal"):
        read_journal(tmp_path / "other.jsonl", after)


def test_a_line_cut_by_a_crash_is_dropped_and_resuming_appends_on_a_new_line(tmp_path: Path) -> None:
    ready = _prepared()
    path = tmp_path / "j.jsonl"
    _journal_of_one_kill(path, ready)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "cut sh')
    assert [o.mutant.id for o in read_journal(path, "tree")] == [ready[0].mutant.id]
    again = Journal(path, "tree", resume=True)
    again.record(Outcome(ready[1].mutant, TIMEOUT, 30.0))
    again.close(remove=False)
    assert [(o.mutant.id, o.status) for o in read_journal(path, "tree")] == [
        (ready[0].mutant.id, KILLED),
        (ready[1].mutant.id, TIMEOUT),
    ]
    damaged = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([damaged[0], "not json", *damaged[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r"j\.jsonl:2 is damaged"):
        read_journal(path, "tree")


def test_resume_scores_a_finished_journal_without_running_and_removes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_entries: list[str]
) -> None:
    out = tmp_path / "reports" / "run.json"
    options = {"timeout_factor": 10.0, "import_time": "module", "spec": ["features/"]}
    journal = Journal(journal_path(out), fingerprint(tmp_path, options), resume=False)
    ready = _prepared()
    for n, item in enumerate(ready):
        journal.record(Outcome(item.mutant, SURVIVED if n == 0 else KILLED, 1.0, 1))
    journal.close(remove=False)
    assert main(["--resume", *no_entries]) == 2  # nothing to continue without --json
    assert "give the same --json" in capsys.readouterr().err
    code = main(["--json", str(out), "--resume", *no_entries])
    captured = capsys.readouterr()
    assert code == 0
    assert f"resuming: {len(ready)} outcome(s) from the journal" in captured.err
    assert "0 mutants to run in 1 module(s)" in captured.err
    total = len(ready)
    score = f"{100 * (total - 1) / total:.1f}% ({total - 1}/{total} non-equivalent mutants killed)"
    assert captured.out.rstrip().endswith(f"mutation score: {score}")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [m["id"] for m in data["mutants"]] == [p.mutant.id for p in ready]
    assert not journal_path(out).exists()
    assert main(["--json", str(out), "--resume", *no_entries]) == 2  # the run is over: nothing to resume
    assert "no journal to read" in capsys.readouterr().err


def test_rescore_reads_a_journal_as_the_part_of_the_run_finished_so_far(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_entries: list[str]
) -> None:
    ready = _prepared()
    path = tmp_path / "run.json.journal.jsonl"
    journal = Journal(path, "a tree this checkout is not", resume=False)
    journal.record(Outcome(ready[0].mutant, KILLED, 1.0))
    journal.record(Outcome(ready[1].mutant, SURVIVED, 1.0))
    journal.close(remove=False)
    assert main(["--rescore", str(path), *no_entries]) == 0
    printed = capsys.readouterr().out
    assert "partial: the 2 mutant(s) the journaled run has finished so far" in printed
    assert printed.rstrip().endswith("mutation score: 50.0% (1/2 non-equivalent mutants killed)")
    assert path.exists()  # read only


def test_a_run_cut_short_by_its_time_budget_keeps_its_journal_for_resume(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    no_entries: list[str],
) -> None:
    ready = _prepared()

    def budget_used_up(*args: object) -> tuple[list[Outcome], list[object], list[object]]:
        outcomes = [Outcome(ready[0].mutant, KILLED, 1.0), Outcome(ready[1].mutant, NOT_RUN)]
        return outcomes, [], [p.mutant for p in ready[:2]]

    monkeypatch.setattr("tools.mutation.__main__._run", budget_used_up)
    out = tmp_path / "run.json"
    assert main(["--json", str(out), "--time-budget", "1", *no_entries]) == 0
    assert "--resume runs the 1 mutant(s) not run yet" in capsys.readouterr().err
    assert out.exists() and journal_path(out).exists()
