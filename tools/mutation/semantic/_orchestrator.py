"""A self-contained context orchestrator (the contract's rules), for mutants that change one decision.

It builds its offload manager and compactor through the implementation's own factories, so only the
decision it is written to break differs from the reference.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from pathlib import Path
from typing import Any

from synapse_ref.context.settings import ContextSettings

logger = logging.getLogger("synapse.context.orchestrator")


@dataclasses.dataclass
class OrchestratorOutcome:
    messages: list[dict[str, Any]]
    offload_result: Any
    compact_result: Any


class Orchestrator:
    def __init__(self, implementation: Any, llm: Any, reference: Any, **options: Any) -> None:
        overrides: dict[str, Any] = {
            key: options.get(key)
            for key in ("offload_threshold", "compact_trigger_threshold", "compact_cooldown_steps")
            if options.get(key) is not None
        }
        self.settings = dataclasses.replace(ContextSettings.from_env(), **overrides)
        self.implementation = implementation
        self.llm = llm
        self.reference = reference
        self.token_counter = options.get("token_counter")
        self.sleep = options.get("sleep")
        self.injected_manager = options.get("context_manager")
        self.injected_compactor = options.get("compactor")
        self.built_for: str | None = None
        self.manager: Any = None
        self.compactor: Any = None
        self.step = 0
        self.last_attempt: float = -math.inf

    def components(self, offload_dir: Path) -> tuple[Any, Any]:
        if self.built_for != str(offload_dir):
            s = self.settings
            storage = self.implementation.offload_storage(Path(offload_dir))
            self.manager = self.injected_manager or self.implementation.context_manager(
                storage,
                offload_threshold=s.offload_threshold,
                scan_ratio=s.offload_scan_ratio,
                min_chars=s.offload_min_chars,
                token_counter=self.token_counter,
            )
            self.compactor = self.injected_compactor or self.implementation.context_compactor(
                storage,
                self.llm,
                token_counter=self.token_counter,
                preserve_count=s.compact_preserve_count,
                target_tokens=s.compact_target_tokens,
                retry_count=s.compact_retry_count,
                model=s.compact_model,
                sleep=self.sleep,
            )
            self.built_for = str(offload_dir)
        return self.manager, self.compactor

    # -- the decisions a mutant may break ------------------------------------------------------------------

    def still_over(self, offload: Any) -> bool:
        """Whether the offload left the history over the threshold (the offload's own verdict)."""
        return bool(offload.still_exceeds_threshold)

    def cooldown_over(self) -> bool:
        return self.step - self.last_attempt >= self.settings.compact_cooldown_steps

    def freed_too_little(self, freed: int) -> bool:
        return freed < self.settings.compact_trigger_threshold

    def record_attempt(self, result: Any) -> None:
        """Called after the attempt; the contract starts the cooldown whatever its outcome."""
        self.last_attempt = self.step

    # -- per step --------------------------------------------------------------------------------------------

    async def offload_if_needed(self, history: list[Any], offload_dir: Any, **options: Any) -> Any:
        self.step += 1
        if not offload_dir:
            return OrchestratorOutcome(history, None, None)
        manager, compactor = self.components(Path(offload_dir))
        offload = manager.offload_if_needed(history)
        messages = offload.messages
        compact = None
        if self.still_over(offload) and self.freed_too_little(offload.freed_tokens) and self.cooldown_over():
            persist = options.get("persist")
            if persist is None:
                compact = await compactor.compact(messages)
            else:
                compact = await compactor.compact(messages, persist=persist)
            self.record_attempt(compact)
            if compact.success:
                messages = compact.messages
        final = compact.current_tokens if compact is not None and compact.success else offload.current_tokens
        if final >= self.settings.offload_threshold:
            logger.warning(
                "Context still exceeds threshold after offload: currentTokens=%d offloadThreshold=%d "
                "offloadedCount=%d",
                final,
                self.settings.offload_threshold,
                offload.offloaded_count,
            )
        return OrchestratorOutcome(
            messages,
            offload if offload.offloaded_count > 0 else None,
            compact if compact is not None and compact.success else None,
        )

    async def force_compact(self, history: list[Any], offload_dir: Any, **options: Any) -> Any:
        return await self.reference.force_compact(history, offload_dir, **options)
