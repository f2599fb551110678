"""The whole spec in process and over the wire protocol, side by side in one run (a script, not a test).

The wire run checks the reference through ``python -m synapse_ref.server``: every component call, port
callback and log record crosses a pipe as JSON.  This prints both runs' wall time and pass counts, and
the wire's message count from the transcript.  Run: ``python bench/bench_spec_wire.py [features/reader]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_spec(paths: list[str], extra: list[str], report: Path) -> tuple[float, dict[str, int]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_") and k != "PYTEST_ADDOPTS"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        *paths,
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "--synapse-require=all",
        f"--synapse-report={report}",
        *extra,
    ]
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    summary = json.loads((report / "synapse-spec.json").read_text(encoding="utf-8"))["summary"]
    return elapsed, {k: v for k, v in summary.items() if isinstance(v, int)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("paths", nargs="*", default=["features/"], help="feature directories (default: all)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        in_process = run_spec(options.paths, [], base / "in-process")
        log = base / "wire.log"
        server = f"{sys.executable} -m synapse_ref.server"
        wire = run_spec(
            options.paths, [f"--synapse-server={server}", f"--synapse-wire-log={log}"], base / "wire"
        )
        messages = sum(1 for _ in log.open(encoding="utf-8")) if log.exists() else 0
    print(f"{'run':<12}{'wall (s)':>10}  outcome")
    for name, (elapsed, summary) in (("in process", in_process), ("over wire", wire)):
        outcome = ", ".join(f"{k} {v}" for k, v in summary.items() if v)
        print(f"{name:<12}{elapsed:>10.1f}  {outcome}")
    print(f"wire: {messages} messages, {wire[0] / max(in_process[0], 1e-9):.2f}x the in-process time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
