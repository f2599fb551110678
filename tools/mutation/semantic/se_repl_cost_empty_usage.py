"""``/cost`` takes a usage record without any field for "no active session": the port tests the record
for truth (``if not usage: return "No active session."``), and an empty mapping is false in Python,
where the original tests ``usage === null`` (an empty object is truthy in JavaScript).  A session whose
record carries no field yet, which the formatter shows as zeros and ``$0.00``, is reported as no session.

Pattern: a default applied when the value is falsy (an empty record taken for a missing one).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl.commands import NO_ACTIVE_SESSION
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "default applied when the value is falsy"


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        get_usage = getattr(self._mut_runner, "get_session_usage", None)
        if line.strip().lower() != "/cost" or not callable(get_usage):
            return outcome
        usage = get_usage()
        if usage is not None and not usage:
            return type(outcome)(outcome.handled, NO_ACTIVE_SESSION, outcome.exit)
        return outcome


class Mutant(ReferenceImplementation):
    name = "semantic-se_repl_cost_empty_usage"

    def repl_commands(self, *, runner: Any = None, **options: Any) -> Any:
        commands = Commands(super().repl_commands(runner=runner, **options))
        commands._mut_runner = runner
        return commands


implementation = Mutant
