"""The strategic compact is suggested when the transcript is *at least* the threshold
(``size >= threshold``); the original requires it to be strictly larger.

Pattern: a boundary tested only at one side; a transcript of exactly 5,000,000 bytes is the case.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import (
    DEFAULT_THRESHOLD_BYTES,
    Delegate,
    env_megabytes,
    hook_threshold_bytes,
)

AREAS = ("workflow",)
PATTERN = "boundary tested at one side only"


def threshold(options: Any) -> int:
    if options and "thresholdBytes" in options:
        return int(options["thresholdBytes"])
    megabytes = env_megabytes()
    return round(megabytes * 1_000_000) if megabytes is not None else DEFAULT_THRESHOLD_BYTES


class Workflow(Delegate):
    def should_suggest_compact(self, *, options: Any = None, **rest: Any) -> Any:
        try:
            limit = threshold(options)
        except (TypeError, ValueError):
            return self._inner.should_suggest_compact(options=options, **rest)
        if limit <= 0 or isinstance((options or {}).get("thresholdBytes"), bool):
            return self._inner.should_suggest_compact(options=options, **rest)
        return self._inner.should_suggest_compact(
            options={**(options or {}), "thresholdBytes": limit - 1}, **rest
        )

    def on_stop(self, event: Any) -> Any:
        with hook_threshold_bytes(threshold(None) - 1):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with hook_threshold_bytes(threshold(None) - 1):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-wf_threshold_inclusive"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
