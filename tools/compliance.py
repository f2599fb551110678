"""Committed compliance reports against today's spec.

A compliance report (``compliance/<name>/synapse-spec.json``) records one run of the spec against an
original implementation that CI cannot fetch.  The spec keeps growing after such a run, so this module
answers, without running anything: does every scenario the report names still exist, which scenarios
were added since (*not yet run*), and is every scenario that did not pass classified in
``compliance/<name>.md``?

    python -m tools.compliance            # every report: figures, unknown IDs, scenarios not yet run
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_ID = re.compile(r"^@([A-Z][A-Z0-9]*-\d{3})$")
REPORTED_ID = re.compile(r"^(?P<id>[A-Z][A-Z0-9]*-\d{3})(?:#(?P<index>[1-9]\d*))?$")
"""A report names a scenario (``WF-050``) or one example of an outline (``WF-050#2``, 1-based)."""
ID_IN_TEXT = re.compile(r"\b[A-Z][A-Z0-9]*-\d{3}(?:#[1-9]\d*)?")
CLASSIFICATIONS = ("seed overrides the original", "bug in the original", "harness limitation")
"""The three reasons a scenario of the spec may not pass against an original."""

NOT_PASSING = ("failed", "errored")


def spec_ids(features: Path) -> dict[str, list[str]]:
    """Every scenario ID of the spec, with the tags of its feature and its own (capabilities included)."""
    return {ident: tags for ident, (tags, _) in _scenarios(features).items()}


def example_counts(features: Path) -> dict[str, int]:
    """The number of examples of each scenario (0 for a plain scenario)."""
    return {ident: count for ident, (_, count) in _scenarios(features).items()}


def _scenarios(features: Path) -> dict[str, tuple[list[str], int]]:
    found: dict[str, tuple[list[str], int]] = {}
    for path in sorted(features.rglob("*.feature")):
        feature_tags: list[str] = []
        pending: list[str] = []
        current: str | None = None
        in_examples = False
        header_seen = False
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("@"):
                pending += [word[1:] for word in stripped.split() if word.startswith("@")]
            elif stripped.startswith("Feature:"):
                feature_tags, pending = pending, []
            elif stripped.startswith(("Scenario:", "Scenario Outline:")):
                current, in_examples = None, False
                for tag in pending:
                    match = SCENARIO_ID.match(f"@{tag}")
                    if match:
                        current = match.group(1)
                        found[current] = (feature_tags + pending, 0)
                pending = []
            elif stripped.startswith("Examples"):
                in_examples, header_seen = True, False
            elif in_examples and stripped.startswith("|") and current is not None:
                if header_seen:
                    tags, count = found[current]
                    found[current] = (tags, count + 1)
                header_seen = True
            elif stripped and not stripped.startswith("#"):
                in_examples = in_examples and stripped.startswith("|")
    return found


def classified_ids(markdown: str) -> dict[str, str]:
    """``ID -> classification`` from the table rows of a classification document."""
    found: dict[str, str] = {}
    for cells in _table_rows(markdown):
        if len(cells) < 2:
            continue
        reason = next((c for c in CLASSIFICATIONS if any(cell.lower().startswith(c) for cell in cells)), None)
        if reason is None:
            continue
        for ident in ID_IN_TEXT.findall(cells[0]):
            found[ident] = reason
    return found


INTERMITTENT = "intermittent"
"""An evidence cell that starts with this word marks a divergence that depends on a race: the original
fails those rows in some runs only, so a run where they pass does not contradict the classification."""


def _table_rows(markdown: str) -> Iterator[list[str]]:
    for line in markdown.splitlines():
        if line.startswith("|"):
            yield [c.strip() for c in line.strip().strip("|").split("|")]


def intermittent_ids(markdown: str) -> set[str]:
    """The classified IDs whose evidence starts with ``intermittent``."""
    return {
        ident
        for cells in _table_rows(markdown)
        if len(cells) >= 3 and cells[2].lower().startswith(INTERMITTENT)
        for ident in ID_IN_TEXT.findall(cells[0])
    }


@dataclass
class Check:
    """The state of one committed report against the spec of this checkout."""

    name: str
    report: dict[str, Any]
    unknown: list[str] = field(default_factory=list)
    not_yet_run: list[str] = field(default_factory=list)
    unclassified: list[str] = field(default_factory=list)
    classified_but_passing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.unknown or self.unclassified or self.classified_but_passing)


def check(report_dir: Path, features: Path, capabilities: Iterable[str] | None = None) -> Check:
    """Compare ``report_dir/synapse-spec.json`` (and ``report_dir.md``) with the scenarios of ``features``.

    ``not_yet_run`` holds every scenario of the spec that the report does not name (added since the run);
    ``capabilities`` narrows it to scenarios tagged with one of them, when given."""
    report = json.loads((report_dir / "synapse-spec.json").read_text(encoding="utf-8"))
    scenarios = _scenarios(features)
    caps = set(capabilities or ())
    result = Check(name=report_dir.name, report=report)
    entries: list[tuple[str, str | None, str]] = []  # (reported id, its scenario, status)
    for entry in report["scenarios"]:
        reported = entry.get("example_id") or entry["id"]
        match = REPORTED_ID.match(reported)
        base = match.group("id") if match else None
        index = int(match.group("index")) if match and match.group("index") else None
        known = base in scenarios and (index is None or index <= scenarios[base][1])
        entries.append((reported, base if known else None, entry["status"]))
        if not known:
            result.unknown.append(reported)
    result.unknown = sorted(set(result.unknown))
    ran = {base for _, base, _ in entries if base is not None}
    result.not_yet_run = sorted(
        i for i, (tags, _) in scenarios.items() if i not in ran and (not caps or caps & set(tags))
    )
    doc = report_dir.parent / f"{report_dir.name}.md"
    markdown = doc.read_text(encoding="utf-8") if doc.is_file() else ""
    classified = classified_ids(markdown)
    intermittent = intermittent_ids(markdown)
    # A report of an earlier kit names outline examples by their scenario ID alone; a row for one example
    # (WF-050#3) then classifies that scenario's failing rows too.
    classified_bases = {ident.split("#")[0] for ident in classified}
    result.unclassified = sorted(
        {
            ident
            for ident, base, status in entries
            if status in NOT_PASSING
            and ident not in classified
            and (base is None or base not in classified)
            and ("#" in ident or ident not in classified_bases)
        }
    )
    failing_bases = {base for _, base, status in entries if status in NOT_PASSING and base}
    failing = {ident for ident, _, status in entries if status in NOT_PASSING}
    indexed = any("#" in ident for ident, _, _ in entries)
    result.classified_but_passing = sorted(
        ident
        for ident in classified
        if ident not in intermittent
        and ident.split("#")[0] in ran
        and not (
            ident in failing or ("#" not in ident and ident in failing_bases)
            if indexed
            else ident.split("#")[0] in failing_bases
        )
    )
    return result


def reports(compliance: Path) -> list[Path]:
    return sorted(p.parent for p in compliance.glob("*/synapse-spec.json"))


def main(argv: list[str] | None = None) -> int:
    compliance = ROOT / "compliance"
    features = ROOT / "features"
    failed = False
    for report_dir in reports(compliance):
        result = check(report_dir, features)
        impl = result.report["implementation"]
        summary = ", ".join(f"{n} {status}" for status, n in result.report["summary"].items() if n)
        print(f"{result.name}: {impl.get('name')} {impl.get('version')}: {summary}")
        for label, items in (
            ("scenarios the spec no longer has", result.unknown),
            ("failures without a classification", result.unclassified),
            ("classified but not failing", result.classified_but_passing),
            ("not yet run (added to the spec since the run)", result.not_yet_run),
        ):
            if items:
                print(f"  {label}: {', '.join(items)}")
        failed = failed or not result.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
