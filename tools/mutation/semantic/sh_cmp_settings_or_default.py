"""The compaction's own settings are read with ``parseInt(v) || default``: ``SYNAPSE_COMPACT_PRESERVE_COUNT``
and ``SYNAPSE_COMPACT_TARGET_TOKENS`` fall back for a missing, non-numeric or zero value, but a negative
one is taken, where the spec falls back for anything not positive: a preserve count of ``-1`` keeps no
message (the whole history is summarised) and a target of ``-5`` asks the model for a one-token summary.

Pattern: a default applied when the value is 0 (``x || default``); the examples' bad values for these
two settings are ``0`` only (a negative value is given for the retry count, read by another line).
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
    "compact_preserve_count": ("SYNAPSE_COMPACT_PRESERVE_COUNT", 5),
    "compact_target_tokens": ("SYNAPSE_COMPACT_TARGET_TOKENS", 8000),
}


def or_default(name: str, default: int) -> int:
    found = re.match(r"\s*([+-]?\d+)", os.environ.get(name, ""))
    return (int(found.group(1)) if found else 0) or default


class OrDefault(Orchestrator):
    def __init__(self, implementation: Any, llm: Any, reference: Any, **options: Any) -> None:
        super().__init__(implementation, llm, reference, **options)
        taken: dict[str, Any] = {
            field: or_default(name, default) for field, (name, default) in SETTINGS.items()
        }
        self.settings = dataclasses.replace(self.settings, **taken)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_cmp_settings_or_default"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return OrDefault(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
