"""``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` is read with ``parseInt(v) || 1048576``: a missing, non-numeric
or zero value falls back to 1 MiB, but a negative one is taken, where the spec falls back for anything
that is not a positive integer: with ``-1`` every offload file is "over the limit", and no offloaded
result is restored for the summary.

Pattern: a default applied when the value is 0 (``x || default``); the examples' bad values are an
empty value, ``abc`` and ``0``.
"""

from __future__ import annotations

import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("context",)
PATTERN = "default applied when the value is 0"
BASELINE = "_baseline_orchestrator"

NAME = "SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES"
DEFAULT = 1024 * 1024


def or_default() -> int:
    found = re.match(r"\s*([+-]?\d+)", os.environ.get(NAME, ""))
    return (int(found.group(1)) if found else 0) or DEFAULT


class Compactor(Delegate):
    async def compact(self, messages: list[Any], **options: Any) -> Any:
        from synapse_ref.context import compactor

        with swapped(compactor, "restore_max_bytes", or_default):
            return await self._inner.compact(messages, **options)


class Mutant(ReferenceImplementation):
    """Compactors, also those the orchestrator builds (through ``context_compactor``), read the limit
    with ``or_default``."""

    name = "semantic-sh_cmp_restore_limit_or_default"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return Compactor(super().context_compactor(storage, llm, **options))

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return Orchestrator(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
