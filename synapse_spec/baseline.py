"""Baselines: the known failures of an implementation, kept in a JSON file.

An entry names a scenario (``CTX-002``: every example of an outline) or one example of an outline
(``CTX-002#2``).  A listed scenario that fails is a *known failure*; one that passes fails the run as a
stale entry, and the terminal says which entry to remove.  An entry naming no scenario of the spec is the
baseline's error.  ``synapse-spec baseline`` (or ``python -m synapse_spec.baseline``) writes a baseline from
the JSON report of a run; the next run accepts it as it is.

File format::

    {"implementation": "my-impl",
     "known_failures": [{"id": "CTX-004", "reason": "...", "link": "https://...", "date": "2026-11-22"}]}
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from synapse_spec.catalog import EXAMPLE_ID

REQUIRED_KEYS = ("id", "reason", "link", "date")
FAILING = ("failed", "errored", "known-failure")
REASON_LIMIT = 200
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{4,}\b")


class BaselineError(ValueError):
    """The baseline file cannot be used as it is."""


@dataclass(frozen=True)
class KnownFailure:
    id: str
    reason: str
    link: str
    date: str

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "reason": self.reason, "link": self.link, "date": self.date}


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
        if not EXAMPLE_ID.match(entry["id"]):
            raise BaselineError(
                f"baseline {path}: entry {index} has id {entry['id']!r}; expected a scenario ID like CTX-002 "
                "or an example of an outline like CTX-002#2"
            )
        if entry["id"] in known:
            raise BaselineError(f"baseline {path}: {entry['id']} is listed twice")
        known[entry["id"]] = KnownFailure(*(entry[k] for k in REQUIRED_KEYS))
    for name in known:
        outline = name.split("#")[0]
        if outline != name and outline in known:
            raise BaselineError(
                f"baseline {path}: {name} is listed, and so is its whole outline {outline}; keep one"
            )
    return known


def entry_for(known: Mapping[str, KnownFailure], scenario_id: str, example: str) -> KnownFailure | None:
    """The entry covering one executed example: its own, else its outline's."""
    return known.get(example) or known.get(scenario_id)


def readable_reason(message: str, status: str) -> str:
    """The first line of a failure message, without object addresses (which differ on every run), so a
    regenerated baseline only changes when a failure does."""
    line = next((part.strip() for part in message.splitlines() if part.strip()), "") or status
    line = _ADDRESS.sub("0x…", line)
    return line if len(line) <= REASON_LIMIT else line[: REASON_LIMIT - 1] + "…"


def _entry(name: str, records: list[Mapping[str, Any]], stamp: str) -> dict[str, str]:
    previous = records[0].get("baseline")
    if isinstance(previous, dict) and previous.get("id") == name:
        return {k: str(previous.get(k, "")) for k in REQUIRED_KEYS}
    first = records[0]
    return {
        "id": name,
        "reason": readable_reason(str(first.get("message") or ""), str(first["status"])),
        "link": "",
        "date": stamp,
    }


def _example_index(record: Mapping[str, Any]) -> int:
    _, _, index = str(record.get("example_id", "")).partition("#")
    return int(index) if index.isdigit() else 0


def baseline_from_report(report: Mapping[str, Any], *, today: date | None = None) -> dict[str, Any]:
    """Every scenario that failed or errored (or is still a known failure) becomes an entry: one for a
    whole outline when all its examples ran and none passed, else one per failing example.  Entries
    that were already in the baseline keep their reason, link and date."""
    stamp = (today or date.today()).isoformat()
    by_id: dict[str, list[Mapping[str, Any]]] = {}
    for record in report["scenarios"]:
        by_id.setdefault(record["id"], []).append(record)
    entries = []
    for scenario_id in sorted(by_id):
        records = sorted(by_id[scenario_id], key=_example_index)
        bad = [r for r in records if r["status"] in FAILING and not r.get("stale")]
        if not bad:
            continue
        examples = int(records[0].get("examples") or 0)
        if examples > 1 and len(bad) == len(records) == examples:
            entries.append(_entry(scenario_id, bad, stamp))
        else:
            entries.extend(_entry(str(r.get("example_id") or scenario_id), [r], stamp) for r in bad)
    return {"implementation": report["implementation"]["name"], "known_failures": entries}


def write_baseline(baseline: Mapping[str, Any], path: Path) -> None:
    path.write_text(json.dumps(baseline, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def read_report(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BaselineError(f"cannot read report {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), list):
        raise BaselineError(f"{path} is not a report of synapse-spec (no 'scenarios' list)")
    return data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--report",
        type=Path,
        default=Path("reports/synapse-spec.json"),
        help="JSON report of a spec run (default: %(default)s)",
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="baseline file to write")


def run(args: argparse.Namespace) -> int:
    try:
        report = read_report(args.report)
    except BaselineError as exc:
        print(exc, file=sys.stderr)
        return 2
    baseline = baseline_from_report(report)
    write_baseline(baseline, args.output)
    print(f"wrote {len(baseline['known_failures'])} known failures to {args.output}")
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synapse_spec.baseline",
        description="Write a baseline of known failures from the JSON report of a spec run.",
    )
    add_arguments(parser)
    return run(parser.parse_args(None if argv is None else list(argv)))


if __name__ == "__main__":
    sys.exit(main())
