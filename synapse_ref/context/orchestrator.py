"""Decides, once per agent step, whether to offload tool results and whether to compact the history."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from synapse_ref.context.compactor import ContextCompactor, SummaryClient
from synapse_ref.context.context_manager import ContextManager
from synapse_ref.context.offload_storage import OffloadStorage
from synapse_ref.context.records import CompactResult, Message, OffloadResult, OrchestratorResult
from synapse_ref.context.settings import ContextSettings
from synapse_ref.context.token_counter import (
    MessageTokenCache,
    TokenCounter,
    default_token_counter,
)

logger = logging.getLogger("synapse.context.orchestrator")

Sleep = Callable[[float], Awaitable[None]]


class OffloadPort(Protocol):
    def offload_if_needed(self, messages: list[Message]) -> OffloadResult: ...


class CompactPort(Protocol):
    async def compact(self, messages: list[Message]) -> CompactResult: ...


class ContextOrchestrator:
    """Offload first; compact only when offloading was not enough and the cooldown allows it.

    A step is one :meth:`offload_if_needed` call.  A compaction attempt (successful or not) starts a
    cooldown of ``compact_cooldown_steps`` steps, recorded before the attempt so a failing model is not
    asked again on every step.  :meth:`force_compact` ignores and does not touch the cooldown.
    """

    def __init__(
        self,
        llm: SummaryClient,
        *,
        settings: ContextSettings | None = None,
        token_counter: TokenCounter | None = None,
        sleep: Sleep | None = None,
        context_manager: OffloadPort | None = None,
        compactor: CompactPort | None = None,
    ) -> None:
        self.llm = llm
        self.settings = settings if settings is not None else ContextSettings.from_env()
        self._token_counter = token_counter if token_counter is not None else default_token_counter()
        self._sleep = sleep
        self._injected_manager = context_manager
        self._injected_compactor = compactor
        self._built_for: str | None = None
        self._manager: OffloadPort | None = context_manager
        self._compactor: CompactPort | None = compactor
        self.current_step = 0
        self.last_compact_attempt_step = -math.inf

    # -- collaborators -----------------------------------------------------------------------------------
    def _ensure_components(self, offload_dir: Path) -> tuple[OffloadPort, CompactPort]:
        """Build (or rebuild for another session directory) what was not injected."""
        key = os.fspath(offload_dir)
        if self._built_for != key:
            storage = OffloadStorage(offload_dir)
            s = self.settings
            if self._injected_manager is None:
                self._manager = ContextManager(
                    storage,
                    offload_threshold=s.offload_threshold,
                    scan_ratio=s.offload_scan_ratio,
                    min_chars=s.offload_min_chars,
                    token_counter=self._token_counter,
                )
            if self._injected_compactor is None:
                self._compactor = ContextCompactor(
                    storage,
                    self.llm,
                    token_counter=self._token_counter,
                    preserve_count=s.compact_preserve_count,
                    target_tokens=s.compact_target_tokens,
                    retry_count=s.compact_retry_count,
                    model=s.compact_model,
                    sleep=self._sleep,
                )
            self._built_for = key
        assert self._manager is not None and self._compactor is not None
        return self._manager, self._compactor

    def should_attempt_compact(self) -> bool:
        return (self.current_step - self.last_compact_attempt_step) >= self.settings.compact_cooldown_steps

    # -- per step ----------------------------------------------------------------------------------------
    async def offload_if_needed(
        self,
        history: list[Message],
        offload_dir: Path | None,
        *,
        persist: Callable[[list[Message]], None] | None = None,
    ) -> OrchestratorResult:
        """``persist`` is handed to the compactor (see :meth:`ContextCompactor.compact`)."""
        self.current_step += 1
        if not offload_dir:
            return OrchestratorResult(history, None, None)
        manager, compactor = self._ensure_components(Path(offload_dir))
        offload = manager.offload_if_needed(history)
        messages = offload.messages
        s = self.settings
        compact: CompactResult | None = None
        if (
            offload.still_exceeds_threshold
            and offload.freed_tokens < s.compact_trigger_threshold
            and self.should_attempt_compact()
        ):
            self.last_compact_attempt_step = self.current_step
            compact = await _compact(compactor, messages, persist)
            if compact.success:
                messages = compact.messages
        final_tokens = (
            compact.current_tokens if compact is not None and compact.success else offload.current_tokens
        )
        if final_tokens >= s.offload_threshold:
            logger.warning(
                "Context still exceeds threshold after offload: currentTokens=%d offloadThreshold=%d "
                "offloadedCount=%d",
                final_tokens,
                s.offload_threshold,
                offload.offloaded_count,
            )
        return OrchestratorResult(
            messages,
            offload if offload.offloaded_count > 0 else None,
            compact if compact is not None and compact.success else None,
        )

    async def force_compact(
        self,
        history: list[Message],
        offload_dir: Path | None,
        *,
        persist: Callable[[list[Message]], None] | None = None,
    ) -> CompactResult:
        """Compact now (the ``/compact`` command): no offload first, no cooldown."""
        if not offload_dir:
            tokens = MessageTokenCache(self._token_counter).count_messages(history)
            preserved = min(len(history), self.settings.compact_preserve_count)
            return CompactResult(list(history), tokens, tokens, 0, preserved, [], True)
        _, compactor = self._ensure_components(Path(offload_dir))
        return await _compact(compactor, history, persist)


async def _compact(
    compactor: CompactPort, messages: list[Message], persist: Callable[[list[Message]], None] | None
) -> CompactResult:
    # Injected doubles only need ``compact(messages)``; the reference compactor also takes ``persist``.
    if persist is None:
        return await compactor.compact(messages)
    return await compactor.compact(messages, persist=persist)  # type: ignore[call-arg]
