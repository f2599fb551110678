"""The crash tool for workflow writes: a short run finds nothing, and it reports what it counted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the tool forks the writer it kills")
def test_killing_workflow_writes_loses_and_corrupts_nothing(tmp_path: Path) -> None:
    report = tmp_path / "crash.json"
    done = subprocess.run(
        [sys.executable, "-m", "tools.crash_workflow", "--trials", "8", "--seed", "3", "--json", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(report.read_text(encoding="utf-8"))
    assert figures["trials"] == 8 and figures["killed_while_writing"] == 8, figures
    assert figures["problems"] == []
    assert done.stdout.splitlines()[-1].startswith("8 kills in ")
