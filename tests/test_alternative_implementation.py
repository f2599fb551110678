"""A second, deliberately different but conforming adapter passes the whole spec through --synapse-impl."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.alt_impl import sanitize

ROOT = Path(__file__).resolve().parent.parent


def test_the_alternative_sanitizer_drops_what_the_rules_say() -> None:
    call = {"id": "c1", "name": "Bash", "arguments": '{"command": "ls"}'}
    history: list[dict[str, Any]] = [
        {"role": "user", "content": []},
        {"role": "assistant", "content": [], "toolCalls": [call]},
        {"role": "tool", "content": [], "toolCallId": "c1"},
        {"role": "tool", "content": [], "toolCallId": "orphan"},
        {"role": "assistant", "content": [], "toolCalls": [{**call, "id": "c2", "arguments": "[]"}]},
        {"role": "tool", "content": [], "toolCallId": "c2"},
    ]
    result = sanitize(history)
    assert result.sanitized == history[:3]
    assert result.changed


def test_the_alternative_implementation_passes_the_spec(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "features/",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "--synapse-impl=tests.alt_impl",
            f"--synapse-report={tmp_path}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-2000:]
    report = json.loads((tmp_path / "synapse-spec.json").read_text(encoding="utf-8"))
    assert report["implementation"]["name"] == "synapse-ref-alt-sanitizer"
    assert report["summary"]["failed"] == 0 and report["summary"]["passed"] == len(report["scenarios"])
