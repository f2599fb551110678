"""When two calls of one round are blocked by the sandbox, the permission request is built for the last
of them: the port collects the round's results in a loop that assigns ``permission = build(result)`` for
each blocked one and returns after the loop, where the original returns the request of the first blocked
result.  The user is asked about the second resource and command; after "allow once" the first blocked
command, the one the model ran first and may depend on, is never run.

Pattern: first vs last of several; every example round has at most one blocked call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, PermissionRequest

AREAS = ("agent",)
PATTERN = "first vs last of several"
BASELINE = "_baseline_loop"


class LastBlocked(AgentLoop):
    def permission_from(
        self, round_results: Sequence[tuple[dict[str, Any], Any]]
    ) -> PermissionRequest | None:
        found = None
        for index in range(len(round_results)):
            request = super().permission_from(round_results[index : index + 1])
            if request is not None:
                found = request
        return found


class Mutant(Baseline):
    name = "semantic-sm_sandbox_last_blocked"
    loop = LastBlocked


implementation = Mutant
