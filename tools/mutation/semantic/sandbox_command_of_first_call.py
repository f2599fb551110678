"""The permission request carries the command of the round's first Bash call, not of the call that was
blocked: the port looks the command up by tool name once the round is over.

Pattern: one event per round; a round with two Bash calls of which the second is blocked is the only
case that tells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, PermissionRequest, bash_command

AREAS = ("agent",)
PATTERN = "one event per round"
BASELINE = "_baseline_loop"


class FirstCommand(AgentLoop):
    def permission_from(
        self, round_results: Sequence[tuple[dict[str, Any], Any]]
    ) -> PermissionRequest | None:
        found = super().permission_from(round_results)
        if found is None:
            return None
        first = next((c for c, _ in round_results if c.get("name") == "Bash"), None)
        command = bash_command(first) if first is not None else ""
        return PermissionRequest(found.resource, found.reason, command)


class Mutant(Baseline):
    name = "semantic-sandbox_command_of_first_call"
    loop = FirstCommand


implementation = Mutant
