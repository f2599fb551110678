"""Baselines: the known failures of an implementation, kept in a JSON file.

A listed scenario runs as a strict expected failure, so an entry whose scenario starts passing fails the run
as stale, and an entry naming no scenario of the spec is an error.  ``python -m synapse_spec.baseline``
writes a baseline from the JSON report of a run.

File format::

    {"implementation": "my-impl",
     "known_failures": [{"id": "CTX-004", "reason": "...", "link": "https://...", "date": "2026-11-22"}]}
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

REQUIRED_KEYS = ("id", "reason", "link", "date")


class BaselineError(ValueError):
    """The baseline file cannot be used as it is."""


@dataclass(frozen=True)
class KnownFailure:
    id: str
    reason: str
    link: str
    date: str


def load_baseline(path: Path) -> dict[str, KnownFailure]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"baseline {path} is not valid JSON: {exc}") from None
    entries = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BaselineError(f"baseline {path}: expected an object with a 'known_failures' list")
    known: dict[str, KnownFailure] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), str) for k in REQUIRED_KEYS):
            raise BaselineError(
                f"baseline {path}: entry {index} needs string fields {', '.join(REQUIRED_KEYS)}"
            )
        if entry["id"] in known:
            raise BaselineError(f"baseline {path}: {entry['id']} is listed twice")
        known[entry["id"]] = KnownFailure(*(entry[k] for k in REQUIRED_KEYS))
    return known


def baseline_from_report(report: dict[str, Any], *, today: date | None = None) -> dict[str, Any]:
    """Every scenario that failed or errored (or is already a known failure) becomes an entry."""
    stamp = (today or date.today()).isoformat()
    entries = [
        {"id": s["id"], "reason": s["message"] or s["status"], "link": "", "date": stamp}
        for s in report["scenarios"]
        if s["status"] in ("failed", "errored", "known-failure")
    ]
    return {"implementation": report["implementation"]["name"], "known_failures": entries}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synapse_spec.baseline",
        description="Write a baseline of known failures from the JSON report of a spec run.",
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=Path("reports/synapse-spec.json"),
        help="JSON report written by `pytest features/` (default: %(default)s)",
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="baseline file to write")
    args = parser.parse_args(argv)
    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read report {args.report}: {exc}", file=sys.stderr)
        return 2
    baseline = baseline_from_report(report)
    args.output.write_text(json.dumps(baseline, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(baseline['known_failures'])} known failures to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
