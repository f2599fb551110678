"""The agent loop: model turns, tool rounds, guards, sandbox permissions, persistence and compaction.

The runner owns the in-memory history and mirrors every change into the session (when it has one), so a
session resumed after a crash, an abort or a guard stop replays a history the provider accepts.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from synapse_ref.agent.abort import AbortError, AbortSignal, throw_if_aborted, until_aborted
from synapse_ref.agent.sandbox import (
    SandboxPermissionHandler,
    SandboxPermissionRequest,
    build_from_tool_results,
)
from synapse_ref.agent.tools import (
    ToolOutcome,
    ToolReturn,
    Toolset,
    counts_as_failure,
    tool_result_text,
)
from synapse_ref.context.records import CompactResult, OrchestratorResult
from synapse_ref.context.sanitizer import sanitize_tool_protocol_history
from synapse_ref.js_text import array_join_text
from synapse_ref.llm.ports import LLMClient
from synapse_ref.llm.scripted import Message
from synapse_ref.session.paths import env_int

logger = logging.getLogger("synapse.agent")

DEFAULT_SYSTEM_PROMPT = "You are Synapse, a coding assistant working in the user's terminal."
DEFAULT_MAX_ITERATIONS = 50
DEFAULT_MAX_CONSECUTIVE_TOOL_FAILURES = 3
CONSECUTIVE_FAILURES_MESSAGE = "Consecutive tool execution failures; stopping."
TOOL_EXECUTION_FAILED = "Tool execution failed"
ITERATION_LIMIT_MESSAGE = (
    "Reached tool iteration limit ({limit}); stopping.\nUse --help to see command usage."
)

EventCallback = Callable[[dict[str, Any]], Any]


class SessionLike(Protocol):
    """What the runner needs of a persisted session."""

    @property
    def id(self) -> str: ...

    @property
    def offload_dir(self) -> Path: ...

    def append_message(self, message_or_list: Message | list[Message]) -> None: ...

    def load_history(self) -> list[Message]: ...

    def rewrite_history(self, messages: list[Message]) -> None: ...

    def clear(self, *, reset_usage: bool = True) -> None: ...

    def get_usage(self) -> dict[str, Any]: ...

    def update_usage(self, usage: dict[str, Any], model: str | None = None) -> None: ...


HistoryWriter = Callable[[list[Message]], None]


class OrchestratorLike(Protocol):
    """``persist`` saves a compacted history before offload files are deleted."""

    async def offload_if_needed(
        self, history: list[Message], offload_dir: Path | None, *, persist: HistoryWriter | None = None
    ) -> OrchestratorResult: ...

    async def force_compact(
        self, history: list[Message], offload_dir: Path | None, *, persist: HistoryWriter | None = None
    ) -> CompactResult: ...


class StopHooksLike(Protocol):
    def should_execute(self) -> bool: ...

    def init(self) -> None: ...

    async def execute_and_append(
        self, final_response: str, *, session_id: str | None, messages: list[Message], cwd: str
    ) -> str: ...


@dataclass(frozen=True)
class StepResult:
    """The outcome of ``step``: ``completed`` with the response, or ``requires_permission`` with the
    request the user must answer (``response`` is then the block reason)."""

    status: str
    response: str
    permission: SandboxPermissionRequest | None = None


@dataclass(frozen=True)
class _LoopOutcome:
    response: str
    completed_normally: bool
    permission: SandboxPermissionRequest | None = None


def _text_of(message: Message) -> str:
    """The text parts joined as the original's ``extractText`` joins them (``Array.join``: a null or
    missing text is nothing)."""
    parts = [p for p in message.get("content", []) if isinstance(p, dict) and p.get("type") == "text"]
    return "".join(array_join_text(part.get("text")) for part in parts)


def _text_message(role: str, text: str) -> Message:
    return {"role": role, "content": [{"type": "text", "text": text}]}


class AgentRunner:
    """Runs user requests through the model and the toolset."""

    def __init__(
        self,
        llm: LLMClient,
        toolset: Toolset,
        *,
        orchestrator: OrchestratorLike,
        session: SessionLike | None = None,
        stop_hooks: StopHooksLike | None = None,
        cwd: str | None = None,
        max_iterations: int | None = None,
        max_consecutive_tool_failures: int | None = None,
    ) -> None:
        self._llm = llm
        self._toolset = toolset
        self._session = session
        self._orchestrator = orchestrator
        self._stop_hooks = stop_hooks
        self._cwd = cwd
        self._max_iterations = max_iterations
        self._max_failures = max_consecutive_tool_failures
        self._history: list[Message] = []
        self._loaded = False
        self._permissions = SandboxPermissionHandler()
        self._listeners: dict[str, list[EventCallback]] = {}

    # -- settings, read when used --------------------------------------------------------------------------
    @property
    def cwd(self) -> str:
        return self._cwd if self._cwd is not None else os.getcwd()

    @property
    def max_iterations(self) -> int:
        if self._max_iterations is not None:
            return self._max_iterations
        return env_int("SYNAPSE_MAX_TOOL_ITERATIONS", DEFAULT_MAX_ITERATIONS)

    @property
    def max_consecutive_tool_failures(self) -> int:
        if self._max_failures is not None:
            return self._max_failures
        value = env_int("SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES", DEFAULT_MAX_CONSECUTIVE_TOOL_FAILURES)
        return value if value > 0 else DEFAULT_MAX_CONSECUTIVE_TOOL_FAILURES

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def history(self) -> list[Message]:
        self._ensure_loaded()
        return list(self._history)

    def on(self, event: str, callback: EventCallback) -> None:
        """Subscribe to ``offload`` (``{count, freedTokens}``) or ``compact`` (``{previousTokens,
        currentTokens, freedTokens, deletedFileCount}``)."""
        self._listeners.setdefault(event, []).append(callback)

    def get_session_usage(self) -> dict[str, Any] | None:
        return self._session.get_usage() if self._session is not None else None

    def clear_session(self) -> None:
        """Forget the conversation (history file, offloads, usage, memory) and any pending question.  The
        session on disk goes first: when clearing it fails, the conversation stays whole, in memory as on
        disk, instead of the model seeing an empty history while the file still holds the old one."""
        if self._session is not None:
            self._session.clear(reset_usage=True)
        self._history = []
        self._permissions.set_pending(None)

    def get_pending_sandbox_permission(self) -> SandboxPermissionRequest | None:
        return self._permissions.pending

    async def resolve_sandbox_permission(self, option: str) -> str:
        return await self._permissions.resolve(option, self._toolset, self.cwd)

    # -- requests ------------------------------------------------------------------------------------------
    async def step(self, user_message: str, *, signal: AbortSignal | None = None) -> StepResult:
        """One request, stopping to ask when the sandbox blocks a command (stop hooks never run here)."""
        outcome = await self._run_loop(user_message, signal)
        if outcome.permission is not None:
            return StepResult("requires_permission", outcome.response, outcome.permission)
        return StepResult("completed", outcome.response)

    async def run(self, user_message: str, *, signal: AbortSignal | None = None) -> str:
        """One request to its final text; stop hooks run only when the model finished on its own."""
        outcome = await self._run_loop(user_message, signal)
        if not outcome.completed_normally:
            return outcome.response
        hooks = self._stop_hooks
        if hooks is not None and hooks.should_execute():
            return await hooks.execute_and_append(
                outcome.response,
                session_id=self._session.id if self._session is not None else None,
                messages=list(self._history),
                cwd=self.cwd,
            )
        return outcome.response

    async def force_compact(self) -> CompactResult:
        """Compact now (``/compact``): no cooldown, no offload first; persisted and announced on success."""
        self._ensure_loaded()
        # ``persist`` swaps the history in before any offload file is deleted.
        result = await self._orchestrator.force_compact(
            list(self._history), self._offload_dir(), persist=self._replace_history
        )
        if result.success:
            self._emit("compact", _compact_payload(result))
        return result

    # -- the loop ------------------------------------------------------------------------------------------
    async def _run_loop(self, user_message: str, signal: AbortSignal | None) -> _LoopOutcome:
        # A permission request belongs to the turn that raised it: once the user asks something else
        # (even a request aborted or failing at once) an answer must never run the old blocked command.
        self._permissions.set_pending(None)
        throw_if_aborted(signal)
        self._ensure_loaded()
        if self._stop_hooks is not None:
            self._stop_hooks.init()
        throw_if_aborted(signal)
        self._sanitize("before run")
        self._append([_text_message("user", user_message)])
        limit = self.max_iterations
        max_failures = self.max_consecutive_tool_failures
        failures = 0
        for _ in range(limit):
            self._sanitize("before step")
            await self._offload_if_needed()
            throw_if_aborted(signal)
            try:
                reply = await self._llm.generate(
                    DEFAULT_SYSTEM_PROMPT, list(self._history), self._toolset.tools, signal=signal
                )
            except Exception as error:
                # Ctrl-C while the model answers: the client fails in its own words (a cancelled request,
                # a reset connection), but the request was aborted, and says so like any interrupted stage.
                if signal is not None and signal.aborted:
                    raise AbortError("Operation aborted") from error
                raise
            self._record_usage(reply.usage)
            message = reply.message
            tool_calls: list[dict[str, Any]] = list(message.get("toolCalls") or [])
            if not tool_calls:
                self._append([message])
                return _LoopOutcome(_text_of(message), True)
            round_results: list[tuple[dict[str, Any], ToolReturn]] = []
            for call in tool_calls:
                throw_if_aborted(signal)
                # An abort while the tool runs cancels it; the round is then dropped whole, like an abort
                # between two calls, so the history never holds a call without its result.
                round_results.append((call, await until_aborted(self._handle_tool_call(call), signal)))
            throw_if_aborted(signal)
            tool_messages = [
                {
                    "role": "tool",
                    "content": [{"type": "text", "text": tool_result_text(r)}],
                    "toolCallId": c["id"],
                }
                for c, r in round_results
            ]
            self._append([message, *tool_messages])
            results = [r for _, r in round_results]
            permission = build_from_tool_results(round_results)
            if permission is not None:
                self._permissions.set_pending(permission)
                return _LoopOutcome(permission.reason, False, permission)
            failures = self._count_failures(failures, results, max_failures)
            if failures >= max_failures:
                logger.error("Stopping after %d consecutive tool failures", failures)
                self._append([_text_message("assistant", CONSECUTIVE_FAILURES_MESSAGE)])
                return _LoopOutcome(CONSECUTIVE_FAILURES_MESSAGE, False)
        text = ITERATION_LIMIT_MESSAGE.format(limit=limit)
        logger.error("Reached tool iteration limit (%d); stopping", limit)  # why the answer stopped short
        self._append([_text_message("assistant", text)])
        return _LoopOutcome(text, False)

    async def _handle_tool_call(self, call: Mapping[str, Any]) -> ToolReturn:
        """The toolset's result for one call.  A toolset that raises fails that call only, as in the
        original: the model gets ``Tool execution failed: <message>`` as an error result and the round and
        the loop go on.  The result has no category and no usage hint, so it never counts toward the
        consecutive-failure stop.  An abort is no tool failure: an ``AbortError`` (ours or a port's: the
        contract knows it by its class name) and the cancellation of an aborted call (a ``BaseException``)
        still propagate."""
        try:
            return await self._toolset.handle(call)
        except Exception as error:
            if type(error).__name__ == AbortError.__name__:
                raise
            return ToolOutcome(
                is_error=True, message=f"{TOOL_EXECUTION_FAILED}: {error}", brief=TOOL_EXECUTION_FAILED
            )

    @staticmethod
    def _count_failures(previous: int, results: Sequence[ToolReturn], limit: int) -> int:
        """Once per round: a round with a countable error adds one, any other round resets the count."""
        errors = [r for r in results if r.is_error]
        if not errors:
            return 0
        counted = sum(1 for r in errors if counts_as_failure(r))
        current = previous + 1 if counted else 0
        logger.warning(
            "Tool execution failed (counted: %d/%d, consecutive: %d/%d)", counted, len(errors), current, limit
        )
        return current

    # -- history and persistence ---------------------------------------------------------------------------
    def _ensure_loaded(self) -> None:
        if not self._loaded:
            self._history = self._session.load_history() if self._session is not None else []
            self._loaded = True

    def _append(self, messages: list[Message]) -> None:
        self._history.extend(messages)
        if self._session is not None:
            self._session.append_message(messages)

    def _replace_history(self, messages: list[Message]) -> None:
        """Swap the whole history; the session file is rewritten atomically, never cleared first, and
        memory follows only a successful write so the two never diverge."""
        if messages == self._history:
            return
        if self._session is not None:
            self._session.rewrite_history(messages)
        self._history = list(messages)

    def _sanitize(self, stage: str) -> None:
        result = sanitize_tool_protocol_history(self._history)
        if not result.changed:
            return
        before = len(self._history)
        self._replace_history(result.sanitized)
        logger.warning(
            "Sanitized dangling or malformed tool-call history (stage=%s, beforeCount=%d, afterCount=%d)",
            stage,
            before,
            len(result.sanitized),
        )

    def _record_usage(self, usage: Mapping[str, int]) -> None:
        if self._session is not None:
            self._session.update_usage(dict(usage), self._llm.model_name)

    # -- context management --------------------------------------------------------------------------------
    def _offload_dir(self) -> Path | None:
        """None without a session: the orchestrator then never offloads or compacts."""
        return self._session.offload_dir if self._session is not None else None

    async def _offload_if_needed(self) -> None:
        """Before each model turn."""
        result = await self._orchestrator.offload_if_needed(
            list(self._history), self._offload_dir(), persist=self._replace_history
        )
        if result.offload_result is not None:
            self._replace_history(list(result.messages))
            offload = result.offload_result
            self._emit("offload", {"count": offload.offloaded_count, "freedTokens": offload.freed_tokens})
        if result.compact_result is not None:
            # The compactor already swapped the compacted history in through ``persist``.
            self._emit("compact", _compact_payload(result.compact_result))

    def _emit(self, event: str, payload: dict[str, Any]) -> None:
        for callback in list(self._listeners.get(event, [])):
            try:
                callback(dict(payload))
            except Exception:
                logger.warning("Listener for %r failed", event, exc_info=True)


def _compact_payload(result: CompactResult) -> dict[str, Any]:
    return {
        "previousTokens": result.previous_tokens,
        "currentTokens": result.current_tokens,
        "freedTokens": result.freed_tokens,
        "deletedFileCount": len(result.deleted_files),
    }
