"""A stop hook that throws ends the hook run: the port wraps the whole loop in one ``try`` instead of
each hook, so the hooks after the failing one never run (their messages are lost), although the user
still gets the response.

Pattern: "nothing is lost" asserted on one branch only; a failing hook that is the last to run, or the
only one, looks the same under both rules.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "state checked after one branch only"


class Registry(Delegate):
    async def execute_all(self, context: Any) -> list[Mapping[str, Any]]:
        results: list[Mapping[str, Any]] = []
        current = ""
        try:
            for name, hook in reversed(list(self._inner._hooks.items())):
                current = name
                outcome = await hook(context)
                if outcome:
                    results.append(outcome)
        except Exception as exc:
            logging.getLogger("synapse.agent.stop_hooks").error(
                "Stop hook '%s' execution failed: %s", current, exc
            )
        return results


class Mutant(ReferenceImplementation):
    name = "semantic-sc_hooks_failure_stops_rest"

    def stop_hook_registry(self) -> Any:
        return Registry(super().stop_hook_registry())


implementation = Mutant
