"""The toolset port of the agent loop and the record a tool returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class ToolReturn(Protocol):
    """What a tool returns; a toolset may hand back any object shaped like :class:`ToolResult`."""

    @property
    def is_error(self) -> bool: ...

    @property
    def output(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def brief(self) -> str: ...

    @property
    def extras(self) -> Mapping[str, Any] | None: ...


@dataclass(frozen=True)
class ToolResult:
    """A tool's answer: ``output`` for the model, ``message`` for diagnostics, ``extras`` for the loop
    (``{"type": "sandbox_blocked", "resource": ...}``, ``{"failureCategory": ...}``)."""

    is_error: bool = False
    output: str = ""
    message: str = ""
    brief: str = ""
    extras: Mapping[str, Any] | None = field(default=None)


def tool_ok(
    output: str = "", *, message: str = "", brief: str = "", extras: Mapping[str, Any] | None = None
) -> ToolResult:
    return ToolResult(False, output, message, brief, extras)


def tool_error(
    message: str, *, output: str = "", brief: str = "", extras: Mapping[str, Any] | None = None
) -> ToolResult:
    """An error result; ``brief`` defaults to the message, as in the original."""
    return ToolResult(True, output, message, brief or message, extras)


class CommandOutput(Protocol):
    """What an unsandboxed command run produced."""

    @property
    def stdout(self) -> str: ...

    @property
    def stderr(self) -> str: ...

    @property
    def exit_code(self) -> int: ...


class BashTool(Protocol):
    """The parts of the Bash tool the sandbox permission round trip needs."""

    async def call(self, args: Mapping[str, Any]) -> ToolReturn: ...

    async def execute_unsandboxed(self, command: str, cwd: str) -> CommandOutput: ...

    async def allow_session(self, path: str, cwd: str) -> None: ...

    async def allow_permanent(self, path: str, cwd: str) -> None: ...


class Toolset(Protocol):
    """The tools offered to the model: their schemas, a dispatcher, and lookup of the Bash tool."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]: ...

    async def handle(self, tool_call: Mapping[str, Any]) -> ToolReturn: ...

    def get_tool(self, name: str) -> BashTool | None: ...


class EmptyToolset:
    """A toolset with no tools, for a model that only talks."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]:
        return ()

    async def handle(self, tool_call: Mapping[str, Any]) -> ToolReturn:
        return tool_error(
            f"Unknown tool: {tool_call.get('name')}", extras={"failureCategory": "command_not_found"}
        )

    def get_tool(self, name: str) -> BashTool | None:
        return None


def tool_result_text(result: ToolReturn) -> str:
    """The text the model sees: output and message, the empty ones left out."""
    return "\n\n".join(part for part in (result.output, result.message) if part)


COUNTABLE_CATEGORIES = frozenset({"command_not_found", "invalid_usage"})
_COUNTABLE_HINTS = (
    "unknown tool",
    "command not found",
    "unknown command",
    "usage:",
    "requires a number argument",
    "must be a non-negative number",
    "unexpected argument:",
    "invalid parameters",
)


def counts_as_failure(result: ToolReturn) -> bool:
    """Whether an error means the model is using the tools wrongly (worth stopping for), as opposed to
    an ordinary execution error such as a wrong path that the model can correct by itself."""
    if not result.is_error:
        return False
    category = (result.extras or {}).get("failureCategory")
    if isinstance(category, str):
        return category in COUNTABLE_CATEGORIES
    text = f"{result.brief}\n{result.output}".lower()
    return any(hint in text for hint in _COUNTABLE_HINTS)
