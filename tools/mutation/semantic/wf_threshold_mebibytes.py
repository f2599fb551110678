"""``SYNAPSE_COMPACT_THRESHOLD_MB`` is read as binary megabytes (``MB * 1024 * 1024``), the usual
conversion in code that handles file sizes; the original's megabytes are decimal.

Pattern: two rules that agree on the examples; a transcript far above or below the threshold cannot
tell 5,000,000 from 5,242,880 bytes, one between them can.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, env_megabytes, hook_threshold_bytes

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def binary(megabytes: float | None) -> int:
    return round((megabytes if megabytes is not None else 5) * 1024 * 1024)


class Workflow(Delegate):
    def should_suggest_compact(self, *, options: Any = None, **rest: Any) -> Any:
        if not options or "thresholdBytes" not in options:
            options = {**(options or {}), "thresholdBytes": binary(env_megabytes())}
        return self._inner.should_suggest_compact(options=options, **rest)

    def on_stop(self, event: Any) -> Any:
        with hook_threshold_bytes(binary(env_megabytes())):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with hook_threshold_bytes(binary(env_megabytes())):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-wf_threshold_mebibytes"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
