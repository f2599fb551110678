"""The "Context still exceeds threshold after offload" warning is decided on the offload's token count
alone: the port logs it right after the offload step, before the compaction it may trigger, where the
original takes the compacted history's count when a compaction succeeded, so every successful
automatic compaction is followed by a false warning.

Pattern: the state checked after one branch only (the compaction's outcome is ignored).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._orchestrator import Orchestrator
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "state checked after one branch only"
BASELINE = "_baseline_orchestrator"

logger = logging.getLogger("synapse.context.orchestrator")
WARNING = "Context still exceeds threshold after offload"


class Recording(Delegate):
    def offload_if_needed(self, messages: list[Any]) -> Any:
        result = self._inner.offload_if_needed(messages)
        self._mut_last = result
        return result


class _Silenced(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(WARNING)


class EarlyWarning(Orchestrator):
    def components(self, offload_dir: Path) -> tuple[Any, Any]:
        manager, compactor = super().components(offload_dir)
        if not isinstance(manager, Recording):
            manager = self.manager = Recording(manager)
        return manager, compactor

    async def offload_if_needed(self, history: list[Any], offload_dir: Any, **options: Any) -> Any:
        silenced = _Silenced()
        logger.addFilter(silenced)
        try:
            outcome = await super().offload_if_needed(history, offload_dir, **options)
        finally:
            logger.removeFilter(silenced)
        offload = getattr(self.manager, "_mut_last", None) if offload_dir else None
        if offload is not None and offload.current_tokens >= self.settings.offload_threshold:
            logger.warning(
                "Context still exceeds threshold after offload: currentTokens=%d offloadThreshold=%d "
                "offloadedCount=%d",
                offload.current_tokens,
                self.settings.offload_threshold,
                offload.offloaded_count,
            )
        return outcome


class Mutant(ReferenceImplementation):
    name = "semantic-sf_orch_warning_offload_tokens"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return EarlyWarning(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
