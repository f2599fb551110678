"""A self-contained agent loop with the contract's rules, for mutants that change one decision of it.

It is built only from public pieces: the model and toolset ports, the implementation's own context
orchestrator and sanitizer, and the session's contract methods.  Log messages are the reference's, so
scenarios that read the log judge the changed rule and nothing else.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import posixpath
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from synapse_ref.agent.abort import until_aborted
from synapse_ref.js_text import array_join_text, json_parse, parse_int

logger = logging.getLogger("synapse.agent")

SYSTEM_PROMPT = "You are Synapse, a coding assistant working in the user's terminal."
FAILURES_MESSAGE = "Consecutive tool execution failures; stopping."
LIMIT_MESSAGE = "Reached tool iteration limit ({limit}); stopping.\nUse --help to see command usage."
OPTIONS = ("allow_once", "allow_session", "allow_permanent", "deny")
COUNTABLE = frozenset({"command_not_found", "invalid_usage"})
HINTS = (
    "unknown tool",
    "command not found",
    "unknown command",
    "usage:",
    "requires a number argument",
    "must be a non-negative number",
    "unexpected argument:",
    "invalid parameters",
)
Message = dict[str, Any]


class AbortError(Exception):
    def __init__(self) -> None:
        super().__init__("Operation aborted")


@dataclasses.dataclass(frozen=True)
class PermissionRequest:
    resource: str
    reason: str
    command: str
    type: str = "sandbox_access"
    options: tuple[str, ...] = OPTIONS


@dataclasses.dataclass(frozen=True)
class ToolFailure:
    """The result of a call whose handling raised: an error with no category and no usage hint."""

    message: str
    is_error: bool = True
    output: str = ""
    brief: str = "Tool execution failed"
    extras: Any = None


@dataclasses.dataclass(frozen=True)
class StepOutcome:
    status: str
    response: str
    permission: PermissionRequest | None = None


def env_int(name: str, default: int) -> int:
    """The leading integer of the variable, as ``parseInt`` reads it (``"2.9"`` is 2), else ``default``."""
    found = parse_int(os.environ.get(name, ""))
    return default if found is None else found


def text_of(message: Message) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    parts = [p for p in content or [] if isinstance(p, dict) and p.get("type") == "text"]
    return "".join(array_join_text(p.get("text")) for p in parts)


def counts_as_failure(result: Any) -> bool:
    category = (result.extras or {}).get("failureCategory")
    if isinstance(category, str):
        return category in COUNTABLE
    return any(hint in part.lower() for part in (result.brief, result.output) for hint in HINTS)


def bash_command(call: Message) -> str:
    if call.get("name") != "Bash":
        return ""
    try:
        command = json_parse(str(call.get("arguments", ""))).get("command")
    except (ValueError, AttributeError):
        return ""
    return command if isinstance(command, str) else ""


class AgentLoop:
    def __init__(
        self,
        implementation: Any,
        llm: Any,
        toolset: Any,
        *,
        session: Any = None,
        stop_hooks: Any = None,
        cwd: str | None = None,
        max_iterations: int | None = None,
        max_consecutive_tool_failures: int | None = None,
        token_counter: Any = None,
        sleep: Any = None,
    ) -> None:
        self._implementation = implementation
        self._llm = llm
        self._toolset = toolset
        self._session = session
        self._hooks = stop_hooks
        self._cwd = cwd
        self._max_iterations = max_iterations
        self._max_failures = max_consecutive_tool_failures
        self._orchestrator = implementation.context_orchestrator(
            llm, token_counter=token_counter, sleep=sleep
        )
        self._history: list[Message] = []
        self._loaded = False
        self._pending: PermissionRequest | None = None
        self._listeners: dict[str, list[Callable[[dict[str, Any]], Any]]] = {}

    # -- settings ------------------------------------------------------------------------------------------

    @property
    def cwd(self) -> str:
        return self._cwd if self._cwd is not None else os.getcwd()

    def iteration_limit(self) -> int:
        if self._max_iterations is not None:
            return self._max_iterations
        return env_int("SYNAPSE_MAX_TOOL_ITERATIONS", 50)

    def failure_limit(self) -> int:
        if self._max_failures is not None:
            return self._max_failures
        value = env_int("SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES", 3)
        return value if value > 0 else 3

    # -- the rules a mutant may change ---------------------------------------------------------------------

    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
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

    def permission_from(self, round_results: Sequence[tuple[Message, Any]]) -> PermissionRequest | None:
        for call, result in round_results:
            extras = result.extras or {}
            if extras.get("type") != "sandbox_blocked":
                continue
            resource = extras.get("resource")
            return PermissionRequest(
                resource=resource if isinstance(resource, str) else "unknown-resource",
                reason=result.message or "Sandbox blocked command execution",
                command=bash_command(call),
            )
        return None

    # -- state ---------------------------------------------------------------------------------------------

    @property
    def history(self) -> list[Message]:
        self._ensure_loaded()
        return list(self._history)

    def on(self, event: str, callback: Callable[[dict[str, Any]], Any]) -> None:
        self._listeners.setdefault(event, []).append(callback)

    def get_session_usage(self) -> Any:
        return self._session.get_usage() if self._session is not None else None

    def clear_session(self) -> None:
        if self._session is not None:
            self._session.clear(reset_usage=True)
        self._history = []
        self._pending = None

    def get_pending_sandbox_permission(self) -> PermissionRequest | None:
        return self._pending

    async def resolve_sandbox_permission(self, option: str) -> str:
        pending = self._pending
        if pending is None:
            raise RuntimeError("No pending sandbox permission request")
        if option not in OPTIONS:
            raise RuntimeError(f"Unknown sandbox permission option: {option!r}")
        bash = self._toolset.get_tool("Bash")
        if bash is None:
            raise RuntimeError("Bash tool is unavailable for sandbox permission handling")
        self._pending = None
        if option == "deny":
            return f"User denied access to {pending.resource}"
        if option == "allow_once":
            run = await bash.execute_unsandboxed(pending.command, self.cwd)
            text = run.stdout if self._shown(run.stdout) else ""
            if self._shown(run.stderr):
                text += ("\n\n" if text else "") + f"[stderr]\n{run.stderr}"
            return text or f"(Command exited with code {run.exit_code})"
        resource = pending.resource
        directory = resource if not resource or resource.endswith("/") else posixpath.dirname(resource) or "."
        if option == "allow_session":
            await bash.allow_session(directory, self.cwd)
        else:
            await bash.allow_permanent(directory, self.cwd)
        retried = await bash.call({"command": pending.command})
        return "\n\n".join(p for p in (retried.output, retried.message) if self._shown(p)) or (
            "(Command executed successfully with no output)"
        )

    def _shown(self, text: str) -> bool:
        """Whether a part of a permission answer is shown: any text that is not empty."""
        return bool(text)

    # -- requests ------------------------------------------------------------------------------------------

    async def step(self, user_message: str, *, signal: Any = None) -> StepOutcome:
        response, _, permission = await self._loop(user_message, signal)
        if permission is not None:
            return StepOutcome("requires_permission", response, permission)
        return StepOutcome("completed", response)

    async def run(self, user_message: str, *, signal: Any = None) -> str:
        response, normal, _ = await self._loop(user_message, signal)
        if not normal:
            return response
        if self._hooks is not None and self._hooks.should_execute():
            return str(
                await self._hooks.execute_and_append(
                    response,
                    session_id=self._session.id if self._session is not None else None,
                    messages=list(self._history),
                    cwd=self.cwd,
                )
            )
        return response

    async def force_compact(self) -> Any:
        self._ensure_loaded()
        result = await self._call(self._orchestrator.force_compact, list(self._history))
        if result.success:
            self._replace(list(result.messages))
            self._emit("compact", self._compact_payload(result))
        return result

    # -- the loop ------------------------------------------------------------------------------------------

    async def _loop(self, user_message: str, signal: Any) -> tuple[str, bool, PermissionRequest | None]:
        self._pending = None  # a request belongs to its turn: a new request, even a failing one, ends it
        self._check(signal)
        self._ensure_loaded()
        if self._hooks is not None:
            self._hooks.init()
        self._check(signal)
        self._sanitize("before run")
        self._append([{"role": "user", "content": [{"type": "text", "text": user_message}]}])
        limit, max_failures, failures = self.iteration_limit(), self.failure_limit(), 0
        for _ in range(limit):
            self._sanitize("before step")
            await self._offload()
            self._check(signal)
            try:
                reply = await self._llm.generate(
                    SYSTEM_PROMPT, list(self._history), self._toolset.tools, signal=signal
                )
            except Exception as error:  # a model call cut short by an abort ends the run as an abort
                if signal is not None and signal.aborted:
                    raise AbortError() from error
                raise
            if self._session is not None:
                self._session.update_usage(dict(reply.usage), self._llm.model_name)
            message = reply.message
            calls = list(message.get("toolCalls") or [])
            if not calls:
                self._append([message])
                return text_of(message), True, None
            round_results: list[tuple[Message, Any]] = []
            for call in calls:
                self._check(signal)
                # An abort while the tool runs cancels it (its process group with it), as in the reference.
                round_results.append((call, await until_aborted(self._handle(call), signal)))
            self._check(signal)
            tool_messages = [
                {
                    "role": "tool",
                    "content": [{"type": "text", "text": "\n\n".join(p for p in (r.output, r.message) if p)}],
                    "toolCallId": c["id"],
                }
                for c, r in round_results
            ]
            self._append([message, *tool_messages])
            permission = self.permission_from(round_results)
            if permission is not None:
                self._pending = permission
                return permission.reason, False, permission
            failures = self.count_failures(failures, [r for _, r in round_results], max_failures)
            if failures >= max_failures:
                logger.error("Stopping after %d consecutive tool failures", failures)
                self._append([{"role": "assistant", "content": [{"type": "text", "text": FAILURES_MESSAGE}]}])
                return FAILURES_MESSAGE, False, None
        text = LIMIT_MESSAGE.format(limit=limit)
        logger.error("Reached tool iteration limit (%d); stopping", limit)
        self._append([{"role": "assistant", "content": [{"type": "text", "text": text}]}])
        return text, False, None

    async def _handle(self, call: Message) -> Any:
        """A call whose handling raises fails that call only (an abort still propagates)."""
        try:
            return await self._toolset.handle(call)
        except Exception as error:
            if type(error).__name__ == "AbortError":
                raise
            return ToolFailure(f"Tool execution failed: {error}")

    @staticmethod
    def _check(signal: Any) -> None:
        if signal is not None and signal.aborted:
            raise AbortError()

    # -- history -------------------------------------------------------------------------------------------

    def _ensure_loaded(self) -> None:
        if not self._loaded:
            self._history = self._session.load_history() if self._session is not None else []
            self._loaded = True

    def _append(self, messages: list[Message]) -> None:
        self._history.extend(messages)
        if self._session is not None:
            self._session.append_message(messages)

    def _replace(self, messages: list[Message]) -> None:
        if messages == self._history:
            return
        if self._session is not None:
            self._session.rewrite_history(messages)
        self._history = list(messages)

    def _sanitize(self, stage: str) -> None:
        result = self._implementation.sanitize_tool_protocol_history(list(self._history))
        if not result.changed:
            return
        before = len(self._history)
        self._replace(list(result.sanitized))
        logger.warning(
            "Sanitized dangling or malformed tool-call history (stage=%s, beforeCount=%d, afterCount=%d)",
            stage,
            before,
            len(result.sanitized),
        )

    # -- context -------------------------------------------------------------------------------------------

    def _offload_dir(self) -> Path | None:
        return Path(self._session.offload_dir) if self._session is not None else None

    async def _call(self, method: Any, history: list[Message]) -> Any:
        try:
            return await method(history, self._offload_dir(), persist=self._replace)
        except TypeError:
            return await method(history, self._offload_dir())

    async def _offload(self) -> None:
        result = await self._call(self._orchestrator.offload_if_needed, list(self._history))
        if result.offload_result is not None:
            self._replace(list(result.messages))
            offload = result.offload_result
            self._emit("offload", {"count": offload.offloaded_count, "freedTokens": offload.freed_tokens})
        if result.compact_result is not None:
            self._replace(list(result.messages))
            self._emit("compact", self._compact_payload(result.compact_result))

    @staticmethod
    def _compact_payload(result: Any) -> dict[str, Any]:
        return {
            "previousTokens": result.previous_tokens,
            "currentTokens": result.current_tokens,
            "freedTokens": result.freed_tokens,
            "deletedFileCount": len(result.deleted_files),
        }

    def _emit(self, event: str, payload: dict[str, Any]) -> None:
        for callback in list(self._listeners.get(event, [])):
            try:
                callback(dict(payload))
            except Exception:
                logger.warning("Listener for %r failed", event, exc_info=True)
