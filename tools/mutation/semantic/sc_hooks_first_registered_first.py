"""The stop hooks run in registration order: the port iterates its map as it comes, where the original
walks it backwards (the last registered hook runs, and reports, first).

Pattern: newest-first vs oldest-first; with a single hook, or hooks of which only one reports, both
orders give the same answer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "newest-first vs oldest-first"


class Registry(Delegate):
    async def execute_all(self, context: Any) -> list[Mapping[str, Any]]:
        results: list[Mapping[str, Any]] = []
        for name, hook in list(self._inner._hooks.items()):
            try:
                outcome = await hook(context)
            except Exception as exc:
                logging.getLogger("synapse.agent.stop_hooks").error(
                    "Stop hook '%s' execution failed: %s", name, exc
                )
                continue
            if outcome:
                results.append(outcome)
        return results


class Mutant(ReferenceImplementation):
    name = "semantic-sc_hooks_first_registered_first"

    def stop_hook_registry(self) -> Any:
        return Registry(super().stop_hook_registry())


implementation = Mutant
