"""A hook's message counts as blank only when it holds ASCII white space: the port tests
``message.strip(" \\t\\r\\n")`` (C's ``isspace``, a byte-wise trim), where the original's ``trim()`` removes
every Unicode white space, so a message of ideographic or no-break spaces is appended after the marker
as if the hook had reported something.

Pattern: white space handled for ASCII only; every blank example message is made of ASCII spaces.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "white space handled for ASCII only"

MARKER = "[StopHook]"
ASCII_SPACE = " \t\r\n\f\v"


class Executor(Delegate):
    def __init__(self, inner: Any, registry: Any) -> None:
        super().__init__(inner)
        self._mut_registry = registry

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        if not self._inner.should_execute():
            return str(await self._inner.execute_and_append(final_response, **options))
        context = _Context(final_response, options, self._inner.emit_progress)
        results = await self._mut_registry.execute_all(context)
        texts = [t for r in results if isinstance(t := r.get("message"), str) and t.strip(ASCII_SPACE)]
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
    name = "semantic-sg_hooks_blank_ascii_only"

    def stop_hook_executor(self, *, enabled: bool, registry: Any, **options: Any) -> Any:
        return Executor(super().stop_hook_executor(enabled=enabled, registry=registry, **options), registry)


implementation = Mutant
