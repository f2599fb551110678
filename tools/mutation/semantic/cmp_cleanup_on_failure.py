"""A failed compaction still deletes the offload files the preserved tail does not reference: the
cleanup put in a ``finally`` block so that it "always runs".

Pattern: "nothing is left behind" asserted after one branch only; after a failure the old history is
kept, and it still references those files.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OFFLOAD_PREFIX, Delegate, message_text

AREAS = ("context", "agent", "repl")
PATTERN = "state checked after one branch only"


class Compactor(Delegate):
    async def compact(self, messages: list[Any], **options: Any) -> Any:
        result = await self._inner.compact(messages, **options)
        if not result.success:
            tail = messages[len(messages) - result.preserved_count :] if result.preserved_count else []
            retained = [
                text.strip()[len(OFFLOAD_PREFIX) :].strip()
                for m in tail
                if m.get("role") == "tool" and (text := message_text(m)).strip().startswith(OFFLOAD_PREFIX)
            ]
            self._inner.cleanup_offloaded_files(retained)
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-cmp_cleanup_on_failure"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return Compactor(super().context_compactor(storage, llm, **options))


implementation = Mutant
