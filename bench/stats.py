"""The figures of a list of repetition times, the same for ours (bench.suite) and the original's
(bench.original)."""

from __future__ import annotations

import statistics


def figures(times: list[float]) -> dict[str, float | int]:
    return {
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
        "reps": len(times),
    }
