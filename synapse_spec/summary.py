"""One table of several implementations' reports, area by area (``compliance/README.md``).

    python -m synapse_spec.summary "reference (in process)=compliance/reference/in-process.json" \
        "Synapse Agent=compliance/synapse-agent/synapse-spec.json" --write compliance/README.md

Each argument is ``LABEL=REPORT.json`` (or just the path: the label is the report's implementation). A
scenario's area is its ``area`` field when the report has one, else the directory of its feature file under
``features/``.  Each cell reads passed / failed / not applicable / errored.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

FEATURES = Path(__file__).resolve().parent.parent / "features"
COLUMNS = ("passed", "failed", "not-applicable", "errored")
LEGEND = "each cell: passed / failed / not applicable / errored (scenario rows, one per executed example)"
BEGIN = "<!-- summary:begin -->"
END = "<!-- summary:end -->"


def feature_areas(features: Path = FEATURES) -> dict[str, str]:
    """``file.feature`` -> its area (the directory under ``features/``)."""
    return {path.name: path.parent.name for path in sorted(features.rglob("*.feature"))}


def area_of(scenario: Mapping[str, Any], areas: Mapping[str, str]) -> str:
    if scenario.get("area"):
        return str(scenario["area"])
    match = re.search(r"\(([^()]+\.feature)\)\s*$", str(scenario.get("feature", "")))
    return areas.get(match.group(1), "?") if match else "?"


def counts_by_area(report: Mapping[str, Any], areas: Mapping[str, str]) -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {}
    for scenario in report.get("scenarios", []):
        status = str(scenario.get("status", ""))
        # A skipped scenario fails a run (synapse_spec.report); a known failure is still a failure here.
        status = "failed" if status in ("skipped", "known-failure") else status
        table.setdefault(area_of(scenario, areas), Counter())[status] += 1
    return table


def cell(counts: Counter[str] | None) -> str:
    return "—" if not counts else " / ".join(str(counts[c]) for c in COLUMNS)


def render(rows: Sequence[tuple[str, Mapping[str, Any]]], features: Path = FEATURES) -> list[str]:
    """A Markdown table: one row per ``(label, report)``, one column per area, and the total."""
    areas = feature_areas(features)
    tables = [(label, counts_by_area(report, areas)) for label, report in rows]
    columns = sorted({area for _, table in tables for area in table})
    lines = [
        "| implementation | " + " | ".join(columns) + " | total |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for label, table in tables:
        total: Counter[str] = Counter()
        for counts in table.values():
            total.update(counts)
        cells = [cell(table.get(area)) for area in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {cell(total)} |")
    return [*lines, "", f"_{LEGEND}_"]


def load(argument: str) -> tuple[str, dict[str, Any]]:
    label, sep, path = argument.partition("=")
    if not sep:
        label, path = "", argument
    report: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    if not label:
        impl = report.get("implementation", {})
        label = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    return label, report


def write_between_markers(target: Path, lines: Sequence[str]) -> None:
    """Replace the text between the summary markers of ``target`` (appending them when missing)."""
    block = "\n".join([BEGIN, *lines, END])
    text = target.read_text(encoding="utf-8") if target.is_file() else ""
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        text = head + block + tail
    else:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + block + "\n"
    target.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synapse_spec.summary", description=__doc__.split("\n")[0]
    )
    parser.add_argument("reports", nargs="+", metavar="[LABEL=]REPORT.json")
    parser.add_argument(
        "--write", type=Path, metavar="FILE", help="put the table between the markers of FILE"
    )
    args = parser.parse_args(argv)
    lines = render([load(a) for a in args.reports])
    if args.write is not None:
        write_between_markers(args.write, lines)
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
