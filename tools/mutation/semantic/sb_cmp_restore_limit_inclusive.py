"""An offload file of exactly ``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` bytes is not restored for the
summary: the port checks ``size >= limit`` ("the limit is where it stops"), where the limit is the
largest size still restored.

Pattern: ``>`` vs ``>=`` tested on one side only; files well under and well over the limit agree.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, patched_env

AREAS = ("context",)
PATTERN = "boundary tested on one side only"

ENV = "SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES"
DEFAULT = 1024 * 1024


def limit() -> int:
    import re

    found = re.match(r"\s*([+-]?\d+)", os.environ.get(ENV, ""))
    value = int(found.group(1)) if found else 0
    return value if value > 0 else DEFAULT


class Compactor(Delegate):
    async def compact(self, messages: list[Any], **options: Any) -> Any:
        exclusive = limit() - 1
        with patched_env(ENV, str(exclusive) if exclusive > 0 else "1"):
            return await self._inner.compact(messages, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-sb_cmp_restore_limit_inclusive"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return Compactor(super().context_compactor(storage, llm, **options))


implementation = Mutant
