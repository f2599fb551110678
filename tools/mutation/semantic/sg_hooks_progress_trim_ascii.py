"""A hook's progress text is trimmed of ASCII white space only (``strip(" \\t\\r\\n")``, a byte-wise
trim), where the original's ``trim()`` removes every Unicode white space: progress padded with
ideographic or no-break spaces keeps them inside the newlines, and a progress of such spaces alone is
shown as a blank part instead of not at all.

Pattern: white space handled for ASCII only; the example progress texts are padded with ASCII spaces.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "white space handled for ASCII only"

ASCII_SPACE = " \t\r\n\f\v"


class Executor(Delegate):
    async def emit_progress(self, message: str) -> None:
        text = message.strip(ASCII_SPACE)
        callback = self._mut_callback
        if not text or callback is None:
            return
        try:
            outcome = callback({"type": "text", "text": f"\n{text}\n"})
            if inspect.isawaitable(outcome):
                await outcome
        except Exception as exc:
            logging.getLogger("synapse.agent.stop_hooks").warning(
                "Stop hook progress callback failed: %s", exc
            )

    async def execute_and_append(self, final_response: str, **options: Any) -> str:
        inner = self._inner
        object.__setattr__(inner, "emit_progress", self.emit_progress)
        try:
            return str(await inner.execute_and_append(final_response, **options))
        finally:
            object.__delattr__(inner, "emit_progress")


class Mutant(ReferenceImplementation):
    name = "semantic-sg_hooks_progress_trim_ascii"

    def stop_hook_executor(self, **options: Any) -> Any:
        executor = Executor(super().stop_hook_executor(**options))
        executor._mut_callback = options.get("on_message_part")
        return executor


implementation = Mutant
