"""``synapse-spec`` (``python -m synapse_spec``) as a user runs it: from a directory that holds nothing of the
spec, in a process of its own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from synapse_spec import cli
from synapse_spec.catalog import read_features, spec_root
from synapse_spec.version import PROTOCOL_VERSION, SPEC_VERSION

ROOT = Path(__file__).resolve().parent.parent

OUTLINE_BROKEN = """
from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.conversation_reader import ConversationReader


class Reader(ConversationReader):
    def read_truncated(self, path, max_chars):
        if max_chars == 1:  # the first example of RDR-029 only
            raise RuntimeError(f"cannot read {object()}")
        return super().read_truncated(path, max_chars)


class Implementation(ReferenceImplementation):
    name = "outline-broken"

    def conversation_reader(self):
        return Reader()


implementation = Implementation
"""


def synapse_spec(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SYNAPSE_", "PYTEST_"))}
    return subprocess.run(
        [sys.executable, "-m", "synapse_spec", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_version_names_the_spec_and_the_protocol(tmp_path: Path) -> None:
    result = synapse_spec(tmp_path, "--version")
    assert (
        result.stdout.strip()
        == f"synapse-spec {SPEC_VERSION} (spec {SPEC_VERSION}, wire protocol {PROTOCOL_VERSION})"
    )


def test_every_feature_file_says_in_english_what_it_pins() -> None:
    features = read_features(spec_root() / "features")
    assert features
    assert [f.path for f in features if len(f.english) < 80] == []


def test_list_shows_ids_titles_areas_seeds_and_descriptions(tmp_path: Path) -> None:
    result = synapse_spec(tmp_path, "list", "--area", "reader")
    assert result.returncode == 0, result.stderr
    assert (
        "reader/file_reading.feature  [reader; seed-003]  ConversationReader 文件读取与截断" in result.stdout
    )
    assert "    The reader turns a session JSONL file into turns;" in result.stdout
    assert re.search(r"^  RDR-007 +`?JSONL.*\(2 examples\)$", result.stdout, re.MULTILINE | re.IGNORECASE)
    listing = json.loads(synapse_spec(tmp_path, "list", "--json").stdout)
    scenarios = [s for feature in listing for s in feature["scenarios"]]
    ids = [s["id"] for s in scenarios]
    assert len(ids) == len(set(ids)) and all(re.match(r"^[A-Z]+-\d{3}$", i) for i in ids)
    assert {f["area"] for f in listing} >= {
        "agent",
        "context",
        "reader",
        "repl",
        "session",
        "skills",
        "workflow",
    }
    assert all(feature["description"] for feature in listing)
    unknown = synapse_spec(tmp_path, "list", "--area", "readers")
    assert unknown.returncode == 2
    assert "unknown area readers (areas: agent, context, reader" in unknown.stderr


def test_a_run_from_anywhere_writes_reports_and_a_baseline_the_next_run_accepts(tmp_path: Path) -> None:
    (tmp_path / "outline_broken.py").write_text(OUTLINE_BROKEN, encoding="utf-8")
    selection = ["--impl", "outline_broken", "--area", "reader", "--id", "RDR-029", "RDR-001"]
    first = synapse_spec(tmp_path, "run", *selection, "--report", "r1", "--", "-p", "no:randomly")
    assert first.returncode == 1, first.stdout[-3000:] + first.stderr
    report = json.loads((tmp_path / "r1" / "synapse-spec.json").read_text("utf-8"))
    assert [(s["example_id"], s["status"]) for s in report["scenarios"]] == [
        ("RDR-001", "passed"),
        ("RDR-029#1", "failed"),
        ("RDR-029#2", "passed"),
    ]
    assert report["kit_version"] == SPEC_VERSION and report["protocol_version"] == PROTOCOL_VERSION
    assert "reader" in report["implementation"]["capabilities"]
    assert all(s["duration"] > 0 and s["needs"] == ["reader"] for s in report["scenarios"])
    assert (tmp_path / "r1" / "synapse-spec.junit.xml").is_file()
    assert (tmp_path / "r1" / "synapse-spec.cucumber.json").is_file()

    written = synapse_spec(tmp_path, "baseline", "--report", "r1/synapse-spec.json", "-o", "baseline.json")
    assert written.returncode == 0, written.stderr
    baseline = json.loads((tmp_path / "baseline.json").read_text("utf-8"))
    [entry] = baseline["known_failures"]
    assert entry["id"] == "RDR-029#1"
    assert "<object object at 0x…>" in entry["reason"] and "\n" not in entry["reason"]

    second = synapse_spec(
        tmp_path,
        "run",
        *selection,
        "--report",
        "r2",
        "--baseline",
        "baseline.json",
        "--",
        "-p",
        "no:randomly",
    )
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr
    again = synapse_spec(tmp_path, "baseline", "--report", "r2/synapse-spec.json", "-o", "again.json")
    assert again.returncode == 0
    assert (tmp_path / "again.json").read_text("utf-8") == (tmp_path / "baseline.json").read_text("utf-8")

    summary = synapse_spec(tmp_path, "summary", "r1/synapse-spec.json", "r2/synapse-spec.json", "--markdown")
    assert summary.returncode == 0, summary.stderr
    assert summary.stdout.splitlines()[:4] == [
        "| implementation | reader | total |",
        "|---|---:|---:|",
        "| outline-broken 0.1.0 | 2 / 1 / 0 / 0 / 0 | 2 / 1 / 0 / 0 / 0 |",
        "| outline-broken 0.1.0 | 2 / 0 / 0 / 0 / 1 | 2 / 0 / 0 / 0 / 1 |",
    ]


def test_server_and_area_mistakes_are_one_line_errors(tmp_path: Path) -> None:
    area = synapse_spec(tmp_path, "run", "--impl", "synapse_ref.adapter", "--area", "nowhere")
    assert area.returncode == 2
    assert area.stderr.startswith("synapse-spec: unknown area nowhere (areas: agent, context,")
    neither = synapse_spec(tmp_path, "run")
    assert neither.returncode == 2
    assert "one of the arguments --impl --server is required" in neither.stderr


def test_server_runs_the_spec_against_a_wire_server_or_says_why_it_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = f"{sys.executable} -m synapse_ref.server"
    result = synapse_spec(tmp_path, "run", "--server", server, "--id", "SKL-001", "--report", "r", "--", "-q")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    report = json.loads((tmp_path / "r" / "synapse-spec.json").read_text("utf-8"))
    assert report["implementation"]["selected"].startswith(f"server: {server} (wire protocol ")
    assert [s["example_id"] for s in report["scenarios"]] == ["SKL-001"]

    monkeypatch.setattr(cli, "server_option_available", lambda: False)
    with pytest.raises(cli.CommandError, match=r"--server needs the wire-protocol client \(pytest option"):
        cli.pytest_arguments(cli.build_parser().parse_args(["run", "--server", server]), [], spec_root())


def test_the_wheel_carries_the_spec_and_registers_the_plugin(tmp_path: Path) -> None:
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0 and "No matching distribution found for setuptools" in built.stderr:
        pytest.skip("no package index to fetch the build backend from")  # pragma: no cover
    assert built.returncode == 0, built.stderr
    [wheel] = tmp_path.glob("synapse_spec-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    feature_files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "features").rglob("*.feature"))
    assert (
        sorted(n.removeprefix("synapse_spec/_spec/") for n in names if n.endswith(".feature"))
        == feature_files
    )
    for part in ("conftest.py", "steps/support.py", "steps/reader.py", "fixtures/pricing"):
        assert any(n.startswith(f"synapse_spec/_spec/{part}") for n in names), part
    assert not [n for n in names if "__pycache__" in n]
    entry_points = zipfile.ZipFile(wheel).read(f"synapse_spec-{SPEC_VERSION}.dist-info/entry_points.txt")
    assert (
        textwrap.dedent(
            """\
        [pytest11]
        synapse_spec.plugin = synapse_spec.plugin
        """
        )
        in entry_points.decode()
    )
    assert "synapse-spec = synapse_spec.cli:main" in entry_points.decode()
