"""Stop hooks: work run after the agent finished a request normally, whose messages are appended to
the final response after a ``[StopHook]`` marker.

The registry is injected (no process-wide singleton), so two runners never share hooks by accident.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from synapse_ref.js_text import trim

logger = logging.getLogger("synapse.agent.stop_hooks")

STOP_HOOK_MARKER = "[StopHook]"

Message = dict[str, Any]
ProgressCallback = Callable[[str], Awaitable[None]]
MessagePartCallback = Callable[[dict[str, Any]], Awaitable[None] | None]


@dataclass
class StopHookContext:
    session_id: str | None
    cwd: str
    messages: list[Message]
    final_response: str
    on_progress: ProgressCallback


class HookContext(Protocol):
    """What a hook may rely on; any object with these attributes will do."""

    @property
    def session_id(self) -> str | None: ...

    @property
    def cwd(self) -> str: ...

    @property
    def messages(self) -> list[Message]: ...

    @property
    def final_response(self) -> str: ...

    @property
    def on_progress(self) -> ProgressCallback: ...


StopHook = Callable[[HookContext], Awaitable[Mapping[str, Any] | None]]
"""A hook reports ``{"message": str}`` (a missing or blank message adds nothing) or None."""


class StopHookRegistry:
    """Named hooks; registering a name again replaces the earlier hook."""

    def __init__(self) -> None:
        self._hooks: dict[str, StopHook] = {}

    def register(self, name: str, hook: StopHook) -> None:
        # Like a JavaScript Map: a replaced hook keeps its place in the execution order.
        self._hooks[name] = hook

    async def execute_all(self, context: HookContext) -> list[Mapping[str, Any]]:
        """Run every hook, last registered first; a failing hook is logged and skipped so the others
        still run and the user still gets the response.  The hooks are those registered when the run
        starts (the original iterates a copy): a hook that registers another one does not disturb it."""
        results: list[Mapping[str, Any]] = []
        for name, hook in reversed(list(self._hooks.items())):
            try:
                outcome = await hook(context)
            except Exception as exc:
                logger.error("Stop hook '%s' execution failed: %s", name, exc)
                continue
            if outcome:
                results.append(outcome)
                text = outcome.get("message")
                if text:
                    logger.info("[StopHook:%s] %s", name, text)
        return results


StopHookLoader = Callable[[StopHookRegistry], None]


class StopHookExecutor:
    """Runs the registry's hooks at the end of a run and appends what they report.

    A disabled executor neither loads hooks nor runs them, even when called directly.
    """

    def __init__(
        self,
        *,
        enabled: bool,
        registry: StopHookRegistry,
        on_message_part: MessagePartCallback | None,
        loader: StopHookLoader | None,
    ) -> None:
        self.enabled = enabled
        self.registry = registry
        self._on_message_part = on_message_part
        self._loader = loader
        self._loaded = False

    def should_execute(self) -> bool:
        return self.enabled

    def init(self) -> None:
        """Load the hooks once, and only when enabled."""
        if not self.enabled or self._loaded:
            return
        self._loaded = True
        if self._loader is not None:
            self._loader(self.registry)

    async def execute_and_append(
        self, final_response: str, *, session_id: str | None, messages: list[Message], cwd: str
    ) -> str:
        if not self.enabled:
            return final_response
        context = StopHookContext(session_id, cwd, messages, final_response, self.emit_progress)
        results = await self.registry.execute_all(context)
        texts = [text for result in results if (text := result.get("message")) and trim(text)]
        if not texts:
            return final_response
        separator = "\n\n" if final_response else ""
        return f"{final_response}{separator}{STOP_HOOK_MARKER}\n" + "\n\n".join(texts)

    async def emit_progress(self, message: str) -> None:
        """Show hook progress to the user; a failing display callback must not stop the hook."""
        text = trim(message)
        if not text or self._on_message_part is None:
            return
        try:
            outcome = self._on_message_part({"type": "text", "text": f"\n{text}\n"})
            if inspect.isawaitable(outcome):
                await outcome
        except Exception as exc:
            logger.warning("Stop hook progress callback failed: %s", exc)
