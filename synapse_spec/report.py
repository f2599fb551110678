"""The compliance report of one spec run: a terminal table, a JSON document and a Markdown rendering.

It is built from pytest's own outcomes (pytest-bdd's cucumber JSON turns expected failures into "skipped"),
and keyed on the stable scenario IDs, never on titles.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import synapse_spec

STATUSES = ("passed", "failed", "errored", "known-failure", "not-applicable", "skipped")
"""Every status a scenario can end in; ``skipped`` fails the run (run it or declare it not applicable)."""


@dataclass
class ScenarioOutcome:
    """What happened to one executable scenario."""

    id: str
    feature: str
    title: str
    tags: list[str] = field(default_factory=list)
    status: str = "not-run"
    message: str = ""


def ran(outcomes: Iterable[ScenarioOutcome]) -> list[ScenarioOutcome]:
    return [o for o in outcomes if o.status != "not-run"]


def per_feature(outcomes: Iterable[ScenarioOutcome]) -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {}
    for o in outcomes:
        table.setdefault(o.feature, Counter())[o.status] += 1
    return dict(sorted(table.items()))


def shown_columns(table: dict[str, Counter[str]]) -> list[str]:
    """Always passed and failed; the other statuses only when some scenario has them."""
    return [s for s in STATUSES if s in ("passed", "failed") or any(c[s] for c in table.values())]


def display_width(text: str) -> int:
    """Terminal columns of a text: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def render_table(outcomes: Iterable[ScenarioOutcome]) -> list[str]:
    table = per_feature(outcomes)
    columns = shown_columns(table)
    width = max([display_width(f) for f in table] + [len("feature")]) + 2
    lines = [_pad("feature", width) + "".join(c.rjust(16) for c in columns)]
    totals: Counter[str] = Counter()
    for feature, counts in table.items():
        totals.update(counts)
        lines.append(_pad(feature, width) + "".join(str(counts[c]).rjust(16) for c in columns))
    lines.append(_pad("total", width) + "".join(str(totals[c]).rjust(16) for c in columns))
    return lines


def build_report(
    outcomes: Iterable[ScenarioOutcome], *, implementation: dict[str, str], baseline: str | None
) -> dict[str, Any]:
    done = sorted(ran(outcomes), key=lambda o: o.id)
    counts = Counter(o.status for o in done)
    return {
        "spec_version": synapse_spec.__version__,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "implementation": implementation,
        "baseline": baseline,
        "summary": {status: counts[status] for status in STATUSES},
        "scenarios": [asdict(o) for o in done],
    }


def render_markdown(report: dict[str, Any]) -> str:
    impl = report["implementation"]
    outcomes = [ScenarioOutcome(**s) for s in report["scenarios"]]
    table = per_feature(outcomes)
    columns = shown_columns(table)
    lines = [
        f"# Synapse spec {report['spec_version']}: {impl['name']} {impl['version']}",
        "",
        "| feature | " + " | ".join(columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for feature, counts in table.items():
        lines.append(f"| {_md(feature)} | " + " | ".join(str(counts[c]) for c in columns) + " |")
    summary = report["summary"]
    lines.append("| **total** | " + " | ".join(f"**{summary[c]}**" for c in columns) + " |")
    problems = [o for o in outcomes if o.status not in ("passed", "not-applicable")]
    if problems:
        lines += [
            "",
            "## Scenarios that did not pass",
            "",
            "| id | scenario | status | message |",
            "|---|---|---|---|",
        ]
        for o in problems:
            lines.append(f"| {o.id} | {_md(o.title)} | {o.status} | {_md(o.message)} |")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write_reports(report: dict[str, Any], directory: Path) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "synapse-spec.json"
    md_path = directory / "synapse-spec.md"
    json_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    return json_path, md_path
