"""The compliance report of one spec run: a terminal table, a JSON document and a Markdown rendering.

It is built from pytest's own outcomes, and keyed on the stable scenario IDs (``CTX-002``) and example IDs
(``CTX-002#2``, the second example of an outline), never on titles.  ``render_summary`` compares several
reports: one row per implementation, one column per area.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from synapse_spec.version import PROTOCOL_VERSION, SPEC_VERSION

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
    example_id: str = ""
    """``CTX-002#2`` for the second example of an outline, the scenario ID for a plain scenario."""
    example: dict[str, str] = field(default_factory=dict)
    """The outline's Examples row this run used (empty for a plain scenario)."""
    examples: int = 0
    """How many examples the outline has (0 for a plain scenario)."""
    area: str = ""
    duration: float = 0.0
    """Seconds, setup and teardown included."""
    needs: list[str] = field(default_factory=list)
    """The capabilities whose members the scenario used (as far as it got)."""
    baseline: dict[str, str] | None = None
    """The baseline entry that covers it, if any."""
    stale: bool = False
    """Listed in the baseline, yet it passed."""

    def __post_init__(self) -> None:
        self.example_id = self.example_id or self.id


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


def _order(outcome: ScenarioOutcome) -> tuple[str, int]:
    _, _, index = outcome.example_id.partition("#")
    return outcome.id, int(index) if index.isdigit() else 0


def build_report(
    outcomes: Iterable[ScenarioOutcome], *, implementation: dict[str, Any], baseline: str | None
) -> dict[str, Any]:
    done = sorted(ran(outcomes), key=_order)
    counts = Counter(o.status for o in done)
    return {
        "spec_version": SPEC_VERSION,
        "kit_version": SPEC_VERSION,
        "protocol_version": PROTOCOL_VERSION,
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
            lines.append(f"| {o.example_id} | {_md(o.title)} | {o.status} | {_md(o.message)} |")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogates(text: str) -> str:
    """A failure message may quote half of a UTF-16 pair (an implementation that cuts text in UTF-16 units),
    which UTF-8 cannot hold: it is written as its JSON escape, which reads back as the same character."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def write_reports(report: dict[str, Any], directory: Path) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "synapse-spec.json"
    md_path = directory / "synapse-spec.md"
    json_text = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    json_path.write_text(_escape_surrogates(json_text), encoding="utf-8")
    md_path.write_text(_escape_surrogates(render_markdown(report)), encoding="utf-8")
    return json_path, md_path


# --------------------------------------------------------------------------------------------------------
# Several reports side by side (``synapse-spec summary``)
# --------------------------------------------------------------------------------------------------------

SUMMARY_COLUMNS = ("passed", "failed", "not-applicable", "errored", "known-failure")
SUMMARY_LEGEND = (
    "each cell: passed / failed / not applicable / errored / known failure (skipped ones count as failed)"
)


def summary_rows(
    reports: Iterable[dict[str, Any]],
) -> tuple[list[str], list[tuple[str, dict[str, Counter[str]]]]]:
    """The areas of all reports, and per report its implementation and per-area status counts."""
    rows = []
    areas: set[str] = set()
    for report in reports:
        impl = report.get("implementation", {})
        label = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
        counts: dict[str, Counter[str]] = {}
        for scenario in report.get("scenarios", []):
            area = scenario.get("area") or "?"
            status = scenario.get("status", "")
            counts.setdefault(area, Counter())["failed" if status == "skipped" else status] += 1
        areas.update(counts)
        rows.append((label, counts))
    return sorted(areas), rows


def _cell(counts: Counter[str] | None) -> str:
    return "—" if not counts else " / ".join(str(counts[c]) for c in SUMMARY_COLUMNS)


def render_summary(reports: Iterable[dict[str, Any]], *, markdown: bool) -> list[str]:
    areas, rows = summary_rows(reports)
    header = ["implementation", *areas, "total"]
    body = []
    for label, counts in rows:
        total: Counter[str] = Counter()
        for c in counts.values():
            total.update(c)
        body.append([label, *(_cell(counts.get(a)) for a in areas), _cell(total)])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
        lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in body]
        return [*lines, "", f"_{SUMMARY_LEGEND}_"]
    widths = [max(display_width(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(_pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip() for row in [header, *body]
    ]
    return [*lines, "", SUMMARY_LEGEND]
