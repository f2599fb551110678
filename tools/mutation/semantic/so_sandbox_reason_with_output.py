"""The permission request's reason is the blocked result's whole text (output and message, as the model
sees it): the port reuses the function that renders a tool result for the history, where the original
takes the result's ``message`` alone (``returnValue.message``, else ``Sandbox blocked command
execution``).  A blocked command that printed something first (``ls ~/.ssh && cat ~/.ssh/id_rsa`` lists
the directory before the read is refused) asks the user with its output in front of the reason, and
``run`` returns that output as if it were the reason.

Pattern: an input carrying two things rendered by different rules; every example blocked result has an
empty output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, Message, PermissionRequest

AREAS = ("agent",)
PATTERN = "two things rendered by one rule"
BASELINE = "_baseline_loop"


class WholeTextReason(AgentLoop):
    def permission_from(self, round_results: Sequence[tuple[Message, Any]]) -> PermissionRequest | None:
        request = super().permission_from(round_results)
        if request is None:
            return None
        for _, result in round_results:
            if (result.extras or {}).get("type") == "sandbox_blocked":
                text = "\n\n".join(p for p in (result.output, result.message) if p)
                return PermissionRequest(request.resource, text or request.reason, request.command)
        return request


class Mutant(Baseline):
    name = "semantic-so_sandbox_reason_with_output"
    loop = WholeTextReason


implementation = Mutant
