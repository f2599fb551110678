"""A hook's progress message is shown as given: the port checks ``message.length > 0`` instead of
trimming, so a whitespace-only progress message is shown as a blank part and a padded one keeps its
padding inside the newlines.

Pattern: trimming skipped where the examples carry no surrounding whitespace.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "whitespace kept around a value"


class Executor(Delegate):
    async def emit_progress(self, message: str) -> None:
        callback = self._mut_callback
        if not message or callback is None:
            return
        try:
            outcome = callback({"type": "text", "text": f"\n{message}\n"})
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
    name = "semantic-sc_hooks_progress_untrimmed"

    def stop_hook_executor(self, **options: Any) -> Any:
        executor = Executor(super().stop_hook_executor(**options))
        executor._mut_callback = options.get("on_message_part")
        return executor


implementation = Mutant
