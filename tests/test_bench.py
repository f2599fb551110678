"""The benchmark suite runs end to end at its quick sizes (figures are printed, never asserted); the
original's figures reach the table from a report of ``bench.original`` or, failing that, from the cases."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.cases import BY_NAME, CASES, Case, offloaded_history
from bench.original.driver import INPUTS, ORIGINAL_CASES, differences, our_answer
from bench.suite import MEASURED, TYPED, entry_of, load_original, original_figure, sources, table, verdict

ROOT = Path(__file__).resolve().parent.parent


def test_quick_suite_writes_every_case(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "bench.suite", "--quick", "--reps", "1", "--out", str(out)),
            *("--data-dir", str(tmp_path / "data"), "--work-dir", str(tmp_path)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [entry["case"] for entry in report["cases"]] == [case.name for case in CASES]
    for entry, case in zip(report["cases"], CASES, strict=True):
        sizes = [run["n"] for run in entry["runs"]]
        assert sizes == ([case.quick] if case.fresh_process else [max(1, case.quick // 2), case.quick])
        for run in entry["runs"]:
            assert run["times_s"] and all(t > 0 for t in run["times_s"])
            assert run["peak_rss_kb"] > 0
    for case in CASES:
        assert case.title in done.stdout


# -- the original's figures: measured (python -m bench.original) or typed in (bench/cases.py) -----------


def _original_report(path: Path, runs: dict[str, list[tuple[int, float, float]]]) -> Path:
    """A report in the shape ``python -m bench.original`` writes: per case, (N, median s, min s) runs."""
    report = {
        "kind": "original",
        "original": {"repository": "BaqiF2/Synapse-Agent", "commit": "5190df1520f6", "runtime": "bun 1.3.5"},
        "mode": "full",
        "started": "2026-01-01T00:00:00Z",
        "cases": [
            {
                "case": name,
                "runs": [
                    {"n": n, "median_s": median, "min_s": low, "max_s": median, "cpu_median_s": low}
                    for n, median, low in sizes
                ],
            }
            for name, sizes in runs.items()
        ],
        "checks": [],
    }
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


def test_a_measured_figure_replaces_the_typed_in_one_at_the_same_size(tmp_path: Path) -> None:
    read, compact = BY_NAME["read"], BY_NAME["compact"]
    measured = load_original(
        _original_report(tmp_path / "o.json", {"read": [(read.full, 0.5, 0.4), (read.quick, 0.01, 0.008)]})
    )
    assert original_figure(read, read.full, measured) == (500.0, 400.0, MEASURED)
    assert original_figure(read, read.quick, measured) == (10.0, 8.0, MEASURED)
    # not in the report: the typed-in figure at full size, nothing at other sizes
    assert original_figure(compact, compact.full, measured) == (compact.original_ms, None, TYPED)
    assert original_figure(compact, compact.quick, measured) == (None, None, None)
    assert original_figure(compact, compact.full, None) == (compact.original_ms, None, TYPED)
    assert original_figure(BY_NAME["on_stop"], BY_NAME["on_stop"].full, measured) == (None, None, None)


def test_the_table_names_each_figures_source_and_the_ratio_uses_it(tmp_path: Path) -> None:
    read, compact = BY_NAME["read"], BY_NAME["compact"]
    measured = load_original(_original_report(tmp_path / "o.json", {"read": [(read.full, 0.3, 0.25)]}))

    def ours(case: Case, median_s: float) -> list[dict[str, Any]]:
        run = {
            "n": case.full,
            "median_s": median_s,
            "min_s": median_s,
            "max_s": median_s,
            "peak_rss_kb": 1024,
            "cpu_median_s": median_s / 2,
        }
        return [run]

    entries = [entry_of(read, ours(read, 0.1), measured), entry_of(compact, ours(compact, 0.1), measured)]
    assert entries[0]["original_source"] == MEASURED
    assert entries[0]["ratio"] == pytest.approx(3.0)
    assert entries[0]["cpu_ratio"] == pytest.approx(5.0)  # the original's 250 ms of CPU, ours 50 ms
    assert entries[1]["original_source"] == TYPED
    assert "cpu_ratio" not in entries[1]  # a typed-in figure has no CPU time
    over_the_wire = [{**ours(read, 0.1)[0], "pid_measured": "server"}]
    assert "cpu_ratio" not in entry_of(read, over_the_wire, measured)  # its CPU time is the client's
    assert compact.original_ms is not None
    assert entries[1]["ratio"] == pytest.approx(compact.original_ms / 100)
    rows = table(entries).splitlines()[2:]
    assert rows[0].split()[-5:] == [MEASURED, "3.00", "5.00", ">=1.5", "ok"]
    assert rows[1].split()[-4:] == [TYPED, f"{compact.original_ms / 100:.2f}", ">=1.5", "no"]
    assert str(tmp_path / "o.json") in sources(measured)[MEASURED]
    assert MEASURED not in sources(None)


def test_each_row_is_judged_against_its_target_and_the_tail_read_must_stay_flat() -> None:
    def run(n: int, median_s: float) -> dict[str, Any]:
        return {"n": n, "median_s": median_s, "min_s": median_s, "max_s": median_s, "peak_rss_kb": 1}

    def entry(name: str, ms: float, growth: float = 2.0) -> dict[str, Any]:
        case = BY_NAME[name]
        return entry_of(case, [run(case.full // 2, ms / 1000 / growth), run(case.full, ms / 1000)], None)

    tail, count, read = BY_NAME["tail_read"], BY_NAME["token_count"], BY_NAME["read"]
    assert tail.original_ms and count.original_ms and read.original_ms
    flat_tail = entry("tail_read", tail.original_ms / 100, growth=1.05)
    growing_tail = entry("tail_read", tail.original_ms / 100, growth=1.9)
    count_at_9 = entry("token_count", count.original_ms / 9)
    read_at_2 = entry("read", read.original_ms / 2)
    assert [e["meets_target"] for e in (flat_tail, growing_tail, count_at_9, read_at_2)] == [
        True,
        False,
        False,
        True,
    ]
    assert count_at_9["target"] == 10.0 and read_at_2["target"] == 1.5
    both = verdict([flat_tail, read_at_2])
    assert both == "targets (ratio original / ours, wall): 2 of 2 rows reach theirs"
    assert verdict([flat_tail, growing_tail, count_at_9, read_at_2, entry("on_stop", 5.0)]) == (
        "targets (ratio original / ours, wall): 2 of 4 rows reach theirs; "
        "below: tail_read not flat (x1.90 per doubling), token_count 9.00 < 10"
    )
    assert verdict([entry("on_stop", 5.0)]) == "targets: no row has an original's figure"


def test_a_file_that_is_no_report_of_the_original_stops_with_its_name(tmp_path: Path) -> None:
    ours = tmp_path / "bench.json"
    ours.write_text(json.dumps({"mode": "full", "cases": []}), encoding="utf-8")
    with pytest.raises(SystemExit, match=re.escape("bench.json: not a report of python -m bench.original")):
        load_original(ours)


def test_the_original_is_timed_on_every_case_that_has_a_typed_in_figure(tmp_path: Path) -> None:
    """The driver's inputs exist for exactly the cases the original has, and are plain JSON."""
    assert {case.name for case in ORIGINAL_CASES} == {c.name for c in CASES if c.original_ms is not None}
    for case in ORIGINAL_CASES:
        inputs = INPUTS[case.name](tmp_path / "data", tmp_path / "work", case.quick)
        assert json.loads(json.dumps(inputs)) == inputs
    offload = INPUTS["offload_if_needed"](tmp_path / "data", tmp_path / "work", 10)
    assert offload["messages"] == offloaded_history(tmp_path / "work", 10)
    assert str(tmp_path / "work") in json.dumps(offload["messages"])


def test_our_answers_are_digests_that_differences_compare(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    answers = {}
    for name in ("summarize", "append_batch", "sanitizer"):
        work = tmp_path / name
        work.mkdir()
        answers[name] = our_answer(BY_NAME[name], 30, data_dir, work, "synapse_ref.adapter:implementation")
    assert answers["summarize"]["total_turns"] == 30
    [(history, figures)] = answers["append_batch"]["history_files"].items()
    assert history.endswith(".jsonl") and figures["lines"] == 30
    assert answers["sanitizer"]["changed"] is True and answers["sanitizer"]["messages"] == 30
    changed = {**answers["append_batch"], "history_files": {history: {**figures, "lines": 29}}}
    assert differences(answers["append_batch"], changed) == [f"history_files.{history}.lines"]
    assert differences(answers["summarize"], answers["summarize"]) == []


def test_the_driver_says_what_is_missing_without_a_checkout(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.original", "--src", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "SYNAPSE_AGENT_SRC"},
    )
    assert done.returncode == 2
    assert "must name a checkout of BaqiF2/Synapse-Agent" in done.stderr
