"""One table of several implementations' reports, area by area (``compliance/README.md``).

    python -m synapse_spec.summary "reference (in process)=compliance/reference/in-process.json" \
        "Synapse Agent=compliance/synapse-agent/synapse-spec.json" --write compliance/README.md

Each argument is ``LABEL=REPORT.json`` (or just the path: the label is the report's implementation). A
scenario's area is its ``area`` field when the report has one, else the directory of its feature file under
``features/``.  The table is the kit's own (``synapse-spec summary --markdown``), rows labelled here.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from synapse_spec.report import render_summary

FEATURES = Path(__file__).resolve().parent.parent / "features"
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


def render(rows: Sequence[tuple[str, Mapping[str, Any]]], features: Path = FEATURES) -> list[str]:
    """The kit's ``synapse-spec summary --markdown`` table of ``(label, report)`` rows: each report under its
    label (two runs of one implementation, in process and over the wire, differ only by it), and scenarios
    of reports written before reports named their area placed by their feature file."""
    areas = feature_areas(features)
    labelled = [
        {
            **report,
            "implementation": {"name": label, "version": ""},
            "scenarios": [{**s, "area": area_of(s, areas)} for s in report.get("scenarios", [])],
        }
        for label, report in rows
    ]
    return render_summary(labelled, markdown=True)


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
