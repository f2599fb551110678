"""After the progress callback fails once, the port stops showing progress for the rest of the run: it
switches the broken display off (``this.onMessagePart = undefined`` in its ``catch``, "do not log the same
failure for every message"), where the original offers every progress message to the callback and logs
each failure on its own.  A renderer that fails once (a resize, a closed pipe that recovers) hides every
later progress line of the hooks.

Pattern: state checked after one branch only: the examples' callbacks fail on every call, or never.
"""

from __future__ import annotations

import inspect
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session", "agent")
PATTERN = "state checked after one branch only"


def _switched_off_after_failure(callback: Any) -> Any:
    failed = False

    async def show(part: dict[str, Any]) -> None:
        nonlocal failed
        if failed:
            return
        try:
            outcome = callback(part)
            if inspect.isawaitable(outcome):
                await outcome
        except Exception:
            failed = True
            raise

    return show


class Mutant(ReferenceImplementation):
    name = "semantic-si_hooks_progress_off_after_failure"

    def stop_hook_executor(self, *, on_message_part: Any = None, **options: Any) -> Any:
        wrapped = _switched_off_after_failure(on_message_part) if on_message_part is not None else None
        return super().stop_hook_executor(on_message_part=wrapped, **options)


implementation = Mutant
