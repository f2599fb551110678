"""The crash tool runs and finds nothing wrong with the reference (a few kills per write path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.crash.__main__ import main


def test_a_few_kills_per_write_path_find_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--trials", "4", "--epoch", "2", "--seed", "7", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for path in ("append", "rewrite", "index"):
        assert any(line.startswith(path) and " lost    0 " in line for line in out.splitlines()), out
    assert out.rstrip().endswith("OK")
    assert list(tmp_path.iterdir()) == []  # the sessions it wrote are gone
