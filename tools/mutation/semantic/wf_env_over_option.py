"""``SYNAPSE_COMPACT_THRESHOLD_MB`` wins over an explicit ``thresholdBytes`` option: the environment read
last, "so the operator can always override", where the original lets the caller's option win.

Pattern: precedence between two sources of one value; only a call giving both, disagreeing, shows it.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, env_megabytes

AREAS = ("workflow",)
PATTERN = "precedence between two sources of one value"


class Workflow(Delegate):
    def should_suggest_compact(self, *, options: Any = None, **rest: Any) -> Any:
        megabytes = env_megabytes()
        if megabytes is not None and options and "thresholdBytes" in options:
            options = {**options, "thresholdBytes": round(megabytes * 1_000_000)}
        return self._inner.should_suggest_compact(options=options, **rest)


class Mutant(ReferenceImplementation):
    name = "semantic-wf_env_over_option"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
