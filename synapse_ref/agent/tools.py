"""The toolset port of the agent loop and the record a tool returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class ToolReturn(Protocol):
    """What a tool returns (``{isError, output, message, brief, extras}`` in the original): ``extras``
    carries loop signals such as ``{"type": "sandbox_blocked", "resource": ...}`` or
    ``{"failureCategory": ...}``."""

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
class ToolOutcome:
    """A tool's result (``ToolReturn``), as the Bash tool and the runner build them."""

    is_error: bool = False
    output: str = ""
    message: str = ""
    brief: str = ""
    extras: Mapping[str, Any] | None = None


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
    """Whether an error result means the model is using the tools wrongly (worth stopping for), as
    opposed to an ordinary execution error such as a wrong path that the model can correct by itself."""
    category = (result.extras or {}).get("failureCategory")
    if isinstance(category, str):
        return category in COUNTABLE_CATEGORIES
    return any(hint in part.lower() for part in (result.brief, result.output) for hint in _COUNTABLE_HINTS)
