"""Each stop hook's message is trimmed before it is appended: the port tidies ``message.trim()`` where
the original filters on the trimmed text but appends the message as the hook wrote it, so a hook's
report that ends with a newline (or is indented) loses it.

Pattern: a rule (trim) applied to the value where it was meant for the test only; every example hook
message has no surrounding whitespace.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "rule applied to the value instead of the test"

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
        texts = [t.strip() for r in results if isinstance(t := r.get("message"), str) and t.strip()]
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
    name = "semantic-sf_hooks_message_trimmed"

    def stop_hook_executor(self, *, enabled: bool, registry: Any, **options: Any) -> Any:
        return Executor(super().stop_hook_executor(enabled=enabled, registry=registry, **options), registry)


implementation = Mutant
