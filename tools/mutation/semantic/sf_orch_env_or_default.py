"""The orchestrator's own settings are read with ``parseInt(v) || default``: the compaction trigger
and cooldown (``SYNAPSE_COMPACT_TRIGGER_THRESHOLD``, ``SYNAPSE_COMPACT_COOLDOWN_STEPS``) fall back for a
missing, non-numeric or zero value, but a negative one is taken, where the original's
``parseEnvPositiveInt`` falls back for anything not positive: a cooldown of ``-2`` lets every step
compact, a trigger of ``-5`` never does.

Pattern: a default applied when the value is 0 (``x || default``); the examples' bad values are ``abc``
and ``0``.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "default applied when the value is 0"
BASELINE = "_baseline_orchestrator"

SETTINGS = {
    "compact_trigger_threshold": ("SYNAPSE_COMPACT_TRIGGER_THRESHOLD", 15000),
    "compact_cooldown_steps": ("SYNAPSE_COMPACT_COOLDOWN_STEPS", 5),
}


def or_default(name: str, default: int) -> int:
    found = re.match(r"\s*([+-]?\d+)", os.environ.get(name, ""))
    return (int(found.group(1)) if found else 0) or default


class OrDefault(Orchestrator):
    def __init__(self, implementation: Any, llm: Any, reference: Any, **options: Any) -> None:
        super().__init__(implementation, llm, reference, **options)
        taken: dict[str, Any] = {
            field: or_default(name, default)
            for field, (name, default) in SETTINGS.items()
            if options.get(field) is None
        }
        self.settings = dataclasses.replace(self.settings, **taken)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_orch_env_or_default"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return OrDefault(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
