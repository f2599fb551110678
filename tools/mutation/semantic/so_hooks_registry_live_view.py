"""The registry runs its hooks from a live view of its table: the port writes the idiomatic
``for name, hook in reversed(self._hooks.items())``, where the original iterates a copy
(``Array.from(this.hooks.entries())``).  A hook that registers another one while it runs (a follow-up
reminder, a hook that enables the next stage) changes the table under the loop, and Python stops the
whole run with ``dictionary changed size during iteration``: no hook after it runs, and the stop-hook
phase fails the request.  (The reference itself ran its hooks this way until HOOK-024.)

Pattern: state changed while it is read; every example hook only returns or raises.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "state changed while it is read"


class Registry(Delegate):
    async def execute_all(self, context: Any) -> list[Mapping[str, Any]]:
        logger = logging.getLogger("synapse.agent.stop_hooks")
        results: list[Mapping[str, Any]] = []
        for name, hook in reversed(self._inner._hooks.items()):
            try:
                outcome = await hook(context)
            except Exception as exc:
                logger.error("Stop hook '%s' execution failed: %s", name, exc)
                continue
            if outcome:
                results.append(outcome)
                if outcome.get("message"):
                    logger.info("[StopHook:%s] %s", name, outcome["message"])
        return results


class Mutant(ReferenceImplementation):
    name = "semantic-so_hooks_registry_live_view"

    def stop_hook_registry(self) -> Any:
        return Registry(super().stop_hook_registry())


implementation = Mutant
