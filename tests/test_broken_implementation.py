"""The reader features must fail an implementation that breaks one of their rules, and say which and why.

``tests/broken_reader.py`` is the reference with one rule broken: ``readTruncated`` keeps the partial line at
the start of its window.  The same features run against the reference must pass, so the failure is the
broken rule's and not the harness's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAILING_TITLES = (
    "Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 FAILED",
    "Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 — 截断点落在中文多字节字符之间 FAILED",
    "Scenario: `readTruncated` 从尾部截断后应对齐到完整行边界 — 窗口内没有完整行时返回空结果 FAILED",
    "Scenario: `readTruncated` 对任意 `maxChars` 都只返回窗口内完整行的 turn FAILED",
)
BROKEN_EXPECTATION = "parsed a half JSON line"


def _start(*extra: str) -> subprocess.Popen[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("SYNAPSE_IMPL", "SYNAPSE_BASELINE", "PYTEST_ADDOPTS")
    }
    command = [
        sys.executable,
        "-m",
        "pytest",
        "features/reader",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        # Bind only this directory's features, whatever the project-wide features base directory is.
        "-o",
        "bdd_features_base_dir=features/reader",
        "--synapse-report=",
        "-v",
        "--gherkin-terminal-reporter",
        *extra,
    ]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )


def test_reader_features_fail_a_reader_that_cuts_mid_line_and_pass_the_reference() -> None:
    broken = _start("--synapse-impl=tests.broken_reader")
    reference = _start()
    broken_out, _ = broken.communicate(timeout=300)
    reference_out, _ = reference.communicate(timeout=300)

    assert reference.returncode == 0, (
        f"the reader features must pass against the reference:\n{reference_out[-4000:]}"
    )

    assert broken.returncode == 1, (
        "the reader features must fail tests.broken_reader (exit 1), got exit "
        f"{broken.returncode}:\n{broken_out[-4000:]}"
    )
    for title in FAILING_TITLES:
        assert title in broken_out, f"the run must name the failing scenario {title!r}:\n{broken_out[-4000:]}"
    assert BROKEN_EXPECTATION in broken_out, (
        f"the failure must state the broken expectation ({BROKEN_EXPECTATION!r}):\n{broken_out[-4000:]}"
    )
    failed = [
        line for line in broken_out.splitlines() if line.strip().startswith("Scenario") and "FAILED" in line
    ]
    assert len(failed) == len(FAILING_TITLES), (
        "only the scenarios of the broken rule may fail; got:\n" + "\n".join(failed)
    )
