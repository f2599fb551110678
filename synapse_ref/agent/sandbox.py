"""The sandbox permission round trip: a blocked command becomes a question to the user, and the answer
is carried out through the Bash tool."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from synapse_ref.agent.tools import ToolReturn, Toolset
from synapse_ref.js_text import json_parse

SANDBOX_BLOCKED = "sandbox_blocked"
PERMISSION_TYPE = "sandbox_access"
PERMISSION_OPTIONS = ("allow_once", "allow_session", "allow_permanent", "deny")
DEFAULT_REASON = "Sandbox blocked command execution"
UNKNOWN_RESOURCE = "unknown-resource"


class SandboxPermissionError(RuntimeError):
    """Resolving a permission was impossible (nothing pending, no Bash tool, unknown option)."""


@dataclass(frozen=True)
class SandboxPermissionRequest:
    """What the user is asked: which resource a command wanted, why it was blocked, and the choices."""

    resource: str
    reason: str
    command: str
    type: str = PERMISSION_TYPE
    options: tuple[str, ...] = PERMISSION_OPTIONS


def build_from_tool_results(
    round_results: Sequence[tuple[dict[str, Any], ToolReturn]],
) -> SandboxPermissionRequest | None:
    """The request for the first blocked result of a round (``(tool call, result)`` pairs in call
    order), or None when nothing was blocked."""
    for call, result in round_results:
        extras = result.extras or {}
        if extras.get("type") != SANDBOX_BLOCKED:
            continue
        resource = extras.get("resource")
        return SandboxPermissionRequest(
            resource=resource if isinstance(resource, str) else UNKNOWN_RESOURCE,
            reason=result.message or DEFAULT_REASON,
            command=_bash_command(call),
        )
    return None


def _bash_command(call: dict[str, Any]) -> str:
    """The ``command`` argument of a Bash call; "" for another tool or arguments without one, or
    arguments ``JSON.parse`` refuses (``NaN``, ``Infinity``), as in the original."""
    if call.get("name") != "Bash":
        return ""
    try:
        command = json_parse(str(call.get("arguments", ""))).get("command")
    except (ValueError, AttributeError):
        return ""
    return command if isinstance(command, str) else ""


def whitelist_path(resource: str) -> str:
    """The directory to allow for a blocked resource (``~/.ssh`` for ``~/.ssh/id_rsa``); a directory
    resource (``/`` or trailing ``/``) is allowed as it is."""
    if not resource or resource.endswith("/"):
        return resource
    return posixpath.dirname(resource) or "."


class SandboxPermissionHandler:
    """Holds at most one pending request and carries out the user's answer to it."""

    def __init__(self) -> None:
        self._pending: SandboxPermissionRequest | None = None

    @property
    def pending(self) -> SandboxPermissionRequest | None:
        return self._pending

    def set_pending(self, request: SandboxPermissionRequest | None) -> None:
        self._pending = request

    async def resolve(self, option: str, toolset: Toolset, cwd: str) -> str:
        """Carry out ``option``; the answer is for the user and is not added to the history."""
        pending = self._pending
        if pending is None:
            raise SandboxPermissionError("No pending sandbox permission request")
        if option not in PERMISSION_OPTIONS:
            raise SandboxPermissionError(f"Unknown sandbox permission option: {option!r}")
        bash = toolset.get_tool("Bash")
        if bash is None:
            raise SandboxPermissionError("Bash tool is unavailable for sandbox permission handling")
        self._pending = None
        if option == "deny":
            return f"User denied access to {pending.resource}"
        if option == "allow_once":
            run = await bash.execute_unsandboxed(pending.command, cwd)
            text = run.stdout
            if run.stderr:
                text += ("\n\n" if text else "") + f"[stderr]\n{run.stderr}"
            return text or f"(Command exited with code {run.exit_code})"
        directory = whitelist_path(pending.resource)
        if option == "allow_session":
            await bash.allow_session(directory, cwd)
        else:
            await bash.allow_permanent(directory, cwd)
        retried = await bash.call({"command": pending.command})
        return "\n\n".join(p for p in (retried.output, retried.message) if p) or (
            "(Command executed successfully with no output)"
        )
