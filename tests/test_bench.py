"""The benchmark suite runs end to end at its quick sizes (figures are printed, never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.cases import CASES

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
