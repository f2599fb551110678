"""The figures of a list of repetition times, the same for ours (bench.suite) and the original's
(bench.original)."""

from __future__ import annotations

import statistics


def figures(times: list[float], cpu: list[float] | None = None) -> dict[str, float | int]:
    """Median, min and max of the wall-clock times, and of the CPU times when there are some."""
    out: dict[str, float | int] = {
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "reps": len(times),
    }
    if cpu:
        out.update(cpu_median_s=statistics.median(cpu), cpu_min_s=min(cpu))
    return out
