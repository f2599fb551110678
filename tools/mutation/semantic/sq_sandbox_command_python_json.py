"""The command of a sandbox permission request is read from arguments the original cannot parse: the
port takes the blocked Bash call's ``arguments`` with ``json.loads`` (or any NaN-tolerant decoder),
so ``{"command": "cat ~/.ssh/id_rsa", "timeout": NaN}`` yields the command, where the original's
``JSON.parse`` refuses the text and the request carries an empty command.  Allowing the request then
runs a command the original never offers to run, taken from arguments the rest of the system (the
toolset, the history sanitizer) treats as no JSON at all.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); every example's
arguments are valid JSON or plainly broken text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, Message, PermissionRequest

AREAS = ("agent",)
PATTERN = "JSON.parse against json.loads"
BASELINE = "_baseline_loop"


def lenient_command(call: Message) -> str:
    if call.get("name") != "Bash":
        return ""
    try:
        command = json.loads(str(call.get("arguments", ""))).get("command")
    except (ValueError, AttributeError):
        return ""
    return command if isinstance(command, str) else ""


class LenientLoop(AgentLoop):
    def permission_from(self, round_results: Sequence[tuple[Message, Any]]) -> PermissionRequest | None:
        for call, result in round_results:
            extras = result.extras or {}
            if extras.get("type") != "sandbox_blocked":
                continue
            resource = extras.get("resource")
            return PermissionRequest(
                resource=resource if isinstance(resource, str) else "unknown-resource",
                reason=result.message or "Sandbox blocked command execution",
                command=lenient_command(call),
            )
        return None


class Mutant(Baseline):
    name = "semantic-sq_sandbox_command_python_json"
    loop = LenientLoop


implementation = Mutant
