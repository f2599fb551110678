"""A stop hook's message made only of whitespace is appended after the ``[StopHook]`` marker: the port
filters the hooks' messages with ``if (result.message)``, so ``"  "`` counts as something to say.

Pattern: empty vs blank; the examples' silent hooks return nothing or an empty string.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "empty string vs blank string"

MARKER = "[StopHook]"


class Executor(Delegate):
    def __init__(self, inner: Any, registry: Any) -> None:
        super().__init__(inner)
        self._mut_registry = registry

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        if not self._inner.should_execute():
            return str(await self._inner.execute_and_append(final_response, **options))
        context = _Context(final_response, options, self._inner.emit_progress)
        results = await self._mut_registry.execute_all(context)
        texts = [text for r in results if isinstance(text := r.get("message"), str) and text]
        if not texts:
            return final_response
        separator = "\n\n" if final_response else ""
        return f"{final_response}{separator}{MARKER}\n" + "\n\n".join(texts)


class _Context:
    def __init__(self, final_response: str, options: dict[str, Any], on_progress: Any) -> None:
        self.session_id = options.get("session_id")
        self.cwd = options.get("cwd", "")
        self.messages = options.get("messages", [])
        self.final_response = final_response
        self.on_progress = on_progress


class Mutant(ReferenceImplementation):
    name = "semantic-sb_hooks_blank_message_kept"

    def stop_hook_executor(self, *, enabled: bool, registry: Any, **options: Any) -> Any:
        return Executor(super().stop_hook_executor(enabled=enabled, registry=registry, **options), registry)


implementation = Mutant
