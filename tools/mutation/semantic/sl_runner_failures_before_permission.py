"""The consecutive-failure guard is checked before the sandbox: the port counts the round's failures
first ("a stop must win over anything else") and looks for a blocked command only when the guard lets
the loop go on, where the original raises the permission request as soon as a round has a blocked
command.  A round that is the third in a row with a mistyped command but also hits the sandbox ends the
request with ``Consecutive tool execution failures; stopping.``: the user is never asked, and the
blocked command, which may be the one that would have worked, is lost.

Pattern: precedence between two outcomes of one round; no example round both reaches the failure limit
and holds a blocked command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, Message, PermissionRequest, counts_as_failure

AREAS = ("agent",)
PATTERN = "precedence between two outcomes"
BASELINE = "_baseline_loop"


class GuardFirst(AgentLoop):
    """The guard's count of the rounds before is kept, so the permission check can see whether this
    round's failures end the request first."""

    _previous_failures = 0

    def count_failures(self, previous: int, results: Sequence[Any], limit: int) -> int:
        current = super().count_failures(previous, results, limit)
        self._previous_failures = current
        return current

    def permission_from(self, round_results: Sequence[tuple[Message, Any]]) -> PermissionRequest | None:
        request = super().permission_from(round_results)
        if request is None:
            return None
        errors = [r for _, r in round_results if r.is_error]
        counted = any(counts_as_failure(r) for r in errors)
        if errors and counted and self._previous_failures + 1 >= self.failure_limit():
            return None  # the loop now counts this round and stops
        return request

    async def _loop(self, user_message: str, signal: Any) -> Any:
        self._previous_failures = 0
        return await super()._loop(user_message, signal)


class Mutant(Baseline):
    name = "semantic-sl_runner_failures_before_permission"
    loop = GuardFirst


implementation = Mutant
