"""``synapse-spec``: run the packaged spec against an implementation from any directory, and read its reports.

* ``synapse-spec run --impl pkg.mod[:attr] | --server CMD [--baseline F] [--report DIR] [--area A]
  [--id ID ...] [--require CAPS] [-- pytest args]`` runs pytest on the spec's feature files (from the
  installed package, or from the checkout this module belongs to) with the spec's plugin;
* ``synapse-spec baseline`` writes a baseline of known failures from a run's JSON report;
* ``synapse-spec list`` shows every scenario: ID, title, area, seeds, and each feature's English description;
* ``synapse-spec summary REPORT.json ...`` compares the reports of several implementations, area by area.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Sequence
from pathlib import Path

from synapse_spec import baseline as baseline_command
from synapse_spec.catalog import Feature, SpecNotFound, read_features, spec_root
from synapse_spec.report import render_summary
from synapse_spec.version import PROTOCOL_VERSION, SPEC_VERSION

SPEC_INI = Path(__file__).resolve().parent / "spec.ini"
VERSION = f"synapse-spec {SPEC_VERSION} (spec {SPEC_VERSION}, wire protocol {PROTOCOL_VERSION})"


class CommandError(Exception):
    """A mistake in the command line, reported in one line with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="synapse-spec",
        description="The Synapse executable spec: check an implementation and read the reports.",
    )
    parser.add_argument("--version", action="version", version=VERSION)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run the spec against an implementation",
        description="Run the spec against an implementation. Arguments after `--` go to pytest.",
    )
    target = run.add_mutually_exclusive_group(required=True)
    target.add_argument("--impl", metavar="MODULE[:ATTR]", help="an implementation importable in Python")
    target.add_argument("--server", metavar="CMD", help="a server speaking the wire protocol, started by CMD")
    run.add_argument("--baseline", metavar="FILE", help="JSON file of known failures")
    run.add_argument(
        "--report",
        metavar="DIR",
        default="reports",
        help="directory for synapse-spec.json/.md, JUnit XML and Cucumber JSON "
        "(default: %(default)s; '' for none)",
    )
    run.add_argument(
        "--area", action="append", default=[], help="only this area (features/<area>); repeatable"
    )
    run.add_argument("--id", nargs="+", action="extend", default=[], metavar="ID", help="only these IDs")
    run.add_argument("--require", metavar="CAPS", help="capabilities that must not be missing, or 'all'")

    base = commands.add_parser("baseline", help="write a baseline of known failures from a JSON report")
    baseline_command.add_arguments(base)

    listing = commands.add_parser("list", help="list the scenarios: IDs, titles, areas, seeds, descriptions")
    listing.add_argument("--area", action="append", default=[], help="only this area; repeatable")
    listing.add_argument("--json", action="store_true", help="JSON instead of text")

    summary = commands.add_parser("summary", help="compare the JSON reports of several implementations")
    summary.add_argument("reports", nargs="+", type=Path, metavar="REPORT.json")
    summary.add_argument("--markdown", action="store_true", help="a Markdown table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in arguments:
        cut = arguments.index("--")
        arguments, extra = arguments[:cut], arguments[cut + 1 :]
    args = build_parser().parse_args(arguments)
    try:
        if args.command == "run":
            return run_spec(args, extra)
        if extra:
            raise CommandError(f"`synapse-spec {args.command}` takes no pytest arguments")
        if args.command == "baseline":
            return baseline_command.run(args)
        if args.command == "list":
            return list_scenarios(args)
        return summarise(args)
    except (CommandError, SpecNotFound) as exc:
        print(f"synapse-spec: {exc}", file=sys.stderr)
        return 2


# --------------------------------------------------------------------------------------------------------
# run
# --------------------------------------------------------------------------------------------------------


def pytest_arguments(args: argparse.Namespace, extra: Sequence[str], root: Path) -> list[str]:
    """The pytest command line that runs the spec at ``root`` with the plugin, whatever the current
    directory holds (its own pytest configuration and conftest files are not used)."""
    features = root / "features"
    areas = sorted(p.name for p in features.iterdir() if p.is_dir() and any(p.glob("*.feature")))
    unknown = [a for a in args.area if a not in areas]
    if unknown:
        raise CommandError(f"unknown area {', '.join(unknown)} (areas: {', '.join(areas)})")
    targets = [str(features / area) for area in args.area] or [str(features)]
    command = [
        *targets,
        "-c",
        str(SPEC_INI),
        "--rootdir",
        str(root),
        "--confcutdir",
        str(root),
        "-p",
        "no:cacheprovider",
        "-p",
        "synapse_spec.plugin",
    ]
    if args.impl:
        command.append(f"--synapse-impl={args.impl}")
    if args.server:
        if not server_option_available():
            raise CommandError(
                "--server needs the wire-protocol client (pytest option --synapse-server), which this "
                "installation of synapse-spec does not have; use --impl, or install a release with it"
            )
        command.append(f"--synapse-server={args.server}")
    if args.baseline:
        command.append(f"--synapse-baseline={Path(args.baseline).resolve()}")
    command.append(f"--synapse-report={args.report}")
    if args.report:
        report = Path(args.report)
        report.mkdir(parents=True, exist_ok=True)
        command += [f"--junitxml={report / 'synapse-spec.junit.xml'}"]
        command += [f"--cucumberjson={report / 'synapse-spec.cucumber.json'}"]
    if args.id:
        command.append(f"--synapse-id={','.join(args.id)}")
    if args.require:
        command.append(f"--synapse-require={args.require}")
    return [*command, *extra]


def server_option_available() -> bool:
    """Whether some installed pytest plugin offers ``--synapse-server`` (the wire-protocol client)."""
    with tempfile.TemporaryDirectory() as empty:
        completed = subprocess.run(
            [sys.executable, "-m", "pytest", "--help", "-p", "synapse_spec.plugin", "--noconftest"],
            cwd=empty,
            capture_output=True,
            text=True,
            check=False,
        )
    return "--synapse-server" in completed.stdout


def run_spec(args: argparse.Namespace, extra: Sequence[str]) -> int:
    import pytest

    command = pytest_arguments(args, extra, spec_root())
    # Like `python -m pytest`: an implementation in the current directory is importable.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    return int(pytest.main(command))


# --------------------------------------------------------------------------------------------------------
# list and summary
# --------------------------------------------------------------------------------------------------------


def _selected(features: list[Feature], areas: Sequence[str]) -> list[Feature]:
    known = sorted({f.area for f in features})
    unknown = [a for a in areas if a not in known]
    if unknown:
        raise CommandError(f"unknown area {', '.join(unknown)} (areas: {', '.join(known)})")
    return [f for f in features if not areas or f.area in areas]


def list_scenarios(args: argparse.Namespace) -> int:
    features = _selected(read_features(spec_root() / "features"), args.area)
    if args.json:
        data = [
            {
                "feature": f.path,
                "name": f.name,
                "area": f.area,
                "seeds": f.seeds,
                "description": f.english,
                "scenarios": [
                    {
                        "id": s.id,
                        "title": s.title,
                        "tags": [t for t in s.tags if t != s.id],
                        "examples": s.example_ids if s.examples else [],
                    }
                    for s in f.scenarios
                ],
            }
            for f in features
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    total = 0
    for feature in features:
        print(f"{feature.path}  [{feature.area}; {', '.join(feature.seeds) or 'no seed'}]  {feature.name}")
        for paragraph in feature.english.split("\n\n"):
            print(textwrap.fill(paragraph, width=100, initial_indent="    ", subsequent_indent="    "))
        for scenario in feature.scenarios:
            examples = f" ({len(scenario.examples)} examples)" if scenario.examples else ""
            extra = [t for t in scenario.tags if t != scenario.id and t not in feature.tags]
            marks = f"  [{', '.join(extra)}]" if extra else ""
            print(f"  {scenario.id:<10} {scenario.title}{examples}{marks}")
            total += len(scenario.example_ids)
        print()
    count = sum(len(f.scenarios) for f in features)
    print(
        f"{count} scenarios, {total} executed examples, in {len(features)} feature files "
        f"(spec {SPEC_VERSION})"
    )
    return 0


def summarise(args: argparse.Namespace) -> int:
    reports = []
    for path in args.reports:
        try:
            reports.append(baseline_command.read_report(path))
        except baseline_command.BaselineError as exc:
            raise CommandError(str(exc)) from None
    for line in render_summary(reports, markdown=args.markdown):
        print(line)
    return 0
