"""A blocked result whose ``message`` is the empty string gives a permission request with an empty
reason: the port writes ``reason: tr.returnValue.message ?? 'Sandbox blocked command execution'``
(a missing message is the only case it thought of), where the original takes the message only when it
is a non-empty string.  ``step()`` then answers ``requires_permission`` with an empty response and the
user is asked about a resource with no word of why.

Pattern: ``??`` vs ``||`` (an empty string taken as a value); every example blocked result has a
message, or none at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, PermissionRequest

AREAS = ("agent",)
PATTERN = "empty value taken as set"
BASELINE = "_baseline_loop"


class NullishReason(AgentLoop):
    def permission_from(
        self, round_results: Sequence[tuple[dict[str, Any], Any]]
    ) -> PermissionRequest | None:
        found = super().permission_from(round_results)
        if found is None:
            return None
        blocked = next(r for _, r in round_results if (r.extras or {}).get("type") == "sandbox_blocked")
        if isinstance(blocked.message, str):
            return PermissionRequest(found.resource, blocked.message, found.command)
        return found


class Mutant(Baseline):
    name = "semantic-sm_sandbox_reason_nullish"
    loop = NullishReason


implementation = Mutant
