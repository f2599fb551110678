"""Slash commands of the REPL as plain functions returning the text to show.

They never write to the terminal themselves, so they can be checked without one; the front end
(``synapse_ref.repl.app``) prints what they return.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SKILL_ENHANCE_PROGRESS_TEXT = "Analyzing skill enhancement..."
HIGHLIGHT_START = "\x1b[1;93m"
HIGHLIGHT_END = "\x1b[0m"
RULE = "═" * 50

COMPACT_UNAVAILABLE = "Compact unavailable in this context."
COMPACT_FAILED_KEPT = "❌ 压缩失败，保持原历史不变"
COMPACT_NOOP = "✅ 无需压缩：历史消息较短或已足够精简"
COST_UNAVAILABLE = "Cost stats unavailable in this context."
NO_ACTIVE_SESSION = "No active session."

HELP_TEXT = """Synapse REPL commands
  /help, /h, /?      Show this help
  /exit, /quit, /q   Leave the REPL (the session is kept and can be resumed)
  /clear             Forget the current conversation (history, offloaded files and usage)
  /compact           Summarise older messages to free context now
  /cost              Token usage and cost of this session
  /skills            List installed skills (also /skill:list)
  /tools             List available tools
  /resume [ID]       Switch to the latest session, or to session ID
  /sessions          List saved sessions
Anything else is sent to the model."""


class CompactResultLike(Protocol):
    @property
    def success(self) -> bool: ...

    @property
    def previous_tokens(self) -> int: ...

    @property
    def current_tokens(self) -> int: ...

    @property
    def freed_tokens(self) -> int: ...

    @property
    def deleted_files(self) -> Sequence[str]: ...


class CompactingRunner(Protocol):
    async def force_compact(self) -> CompactResultLike: ...


class ToolCatalog(Protocol):
    """Lists the tools the agent can call (MCP and skill wrappers in the original)."""

    def format_search_result(self) -> str: ...


@dataclass(frozen=True)
class CommandOutcome:
    """Whether the line was a command, what to show, and whether the REPL should end."""

    handled: bool
    output: str = ""
    exit: bool = False


@dataclass
class ReplContext:
    """What the commands may reach; anything missing gives an "unavailable" answer instead of failing."""

    runner: Any = None
    synapse_home: Path | None = None
    tool_catalog: ToolCatalog | None = None
    resume: Callable[[str | None], str] | None = None
    list_sessions: Callable[[], str] | None = None


# -- display helpers ---------------------------------------------------------------------------------------


def format_stream_text(text: str, *, is_tty: bool) -> str:
    """Highlight the skill-enhancement progress line, but only on a terminal (no escapes in pipes/logs)."""
    if is_tty and SKILL_ENHANCE_PROGRESS_TEXT in text:
        return f"{HIGHLIGHT_START}{text}{HIGHLIGHT_END}"
    return text


def _number(value: int) -> str:
    return f"{value:,}"


# -- /compact ----------------------------------------------------------------------------------------------


async def compact_command(runner: Any) -> str:
    """Waits for the compaction to finish, so the prompt comes back only with the final result."""
    force_compact = getattr(runner, "force_compact", None) if runner is not None else None
    if not callable(force_compact):
        return COMPACT_UNAVAILABLE
    try:
        result: CompactResultLike = await force_compact()
    except Exception as error:
        return f"❌ 压缩失败：{error}" if str(error) else f"❌ 压缩失败：{type(error).__name__}"
    if not result.success:
        return COMPACT_FAILED_KEPT
    if result.freed_tokens <= 0:
        return COMPACT_NOOP
    return (
        f"✅ 压缩完成：{_number(result.previous_tokens)} → {_number(result.current_tokens)} tokens\n"
        f"释放 {_number(result.freed_tokens)} tokens，删除 {len(result.deleted_files)} 个卸载文件"
    )


# -- /cost -------------------------------------------------------------------------------------------------


def cost_command(runner: Any) -> str:
    get_usage = getattr(runner, "get_session_usage", None) if runner is not None else None
    if not callable(get_usage):
        return COST_UNAVAILABLE
    usage = get_usage()
    if usage is None:
        return NO_ACTIVE_SESSION
    from synapse_ref.session.usage import format_cost_output

    return format_cost_output(usage)


# -- /skills -----------------------------------------------------------------------------------------------


_FRONTMATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_DESCRIPTION_LINE = re.compile(
    r"^\s*(?:\*\*)?description(?:\*\*)?\s*:\s*(.*?)\s*$", re.IGNORECASE | re.MULTILINE
)


def skill_description(skill_md: str) -> str | None:
    """``description:`` from the front matter, else from a ``description:`` line; None when absent."""
    match = _FRONTMATTER.match(skill_md)
    sources = [match.group(1)] if match else []
    sources.append(skill_md)
    for source in sources:
        found = _DESCRIPTION_LINE.search(source)
        if found:
            value = found.group(1).strip().strip("\"'").strip()
            if value:
                return value
    return None


def skills_command(skills_dir: Path) -> str:
    """Lists ``<skills_dir>/<name>/SKILL.md`` with description and versions; tells where to create
    skills when there are none."""
    lines = ["Available Skills", RULE]
    if not skills_dir.is_dir():
        lines += ["  No skills directory found.", f"  Create skills in: {skills_dir}"]
        return "\n".join(lines)
    try:
        skills = sorted(p for p in skills_dir.iterdir() if p.is_dir() and (p / "SKILL.md").is_file())
        if not skills:
            lines += ["  No skills installed.", f"  Create skills in: {skills_dir}"]
            return "\n".join(lines)
        for skill in skills:
            description = skill_description(
                (skill / "SKILL.md").read_text(encoding="utf-8", errors="replace")
            )
            versions_dir = skill / "versions"
            versions = (
                sorted((v.name for v in versions_dir.iterdir() if v.is_dir()), reverse=True)
                if versions_dir.is_dir()
                else []
            )
            lines += [
                f"  {skill.name}",
                f"    {description or '(No description)'}",
                f"    versions: {', '.join(versions) if versions else '(none)'}",
            ]
    except OSError as error:
        lines.append(f"  Error reading skills: {error}")
    return "\n".join(lines)


# -- /tools ------------------------------------------------------------------------------------------------

_FOUND_HEADER = re.compile(r"^Found \d+.*\n\n?")


def tools_command(catalog: ToolCatalog | None) -> str:
    """The catalog's listing without its ``Found N tools`` count line (the header says it already)."""
    lines = ["Available Tools", RULE]
    if catalog is None:
        lines.append("  Tool listing unavailable in this context.")
        return "\n".join(lines)
    body = _FOUND_HEADER.sub("", catalog.format_search_result(), count=1)
    return "\n".join([*lines, body.rstrip("\n")])


# -- dispatcher --------------------------------------------------------------------------------------------


async def handle_command(line: str, context: ReplContext) -> CommandOutcome:
    """Run a slash command; any other input is not handled (it goes to the model)."""
    text = line.strip()
    if not text.startswith("/"):
        return CommandOutcome(False)
    command, _, argument = text.partition(" ")
    command = command.lower()
    argument = argument.strip()
    runner = context.runner
    if command in ("/exit", "/quit", "/q"):
        return CommandOutcome(True, "Goodbye.", exit=True)
    if command in ("/help", "/h", "/?"):
        return CommandOutcome(True, HELP_TEXT)
    if command == "/compact":
        return CommandOutcome(True, await compact_command(runner))
    if command == "/cost":
        return CommandOutcome(True, cost_command(runner))
    if command == "/clear":
        clear = getattr(runner, "clear_session", None) if runner is not None else None
        if not callable(clear):
            return CommandOutcome(True, "Clear unavailable in this context.")
        clear()
        return CommandOutcome(True, "Conversation cleared.")
    if command in ("/skills", "/skill:list"):
        if context.synapse_home is None:
            return CommandOutcome(True, "Skills unavailable in this context.")
        return CommandOutcome(True, skills_command(context.synapse_home / "skills"))
    if command == "/tools":
        return CommandOutcome(True, tools_command(context.tool_catalog))
    if command == "/resume":
        if context.resume is None:
            return CommandOutcome(True, "Resume unavailable in this context.")
        return CommandOutcome(True, context.resume(argument or None))
    if command == "/sessions":
        if context.list_sessions is None:
            return CommandOutcome(True, "Session listing unavailable in this context.")
        return CommandOutcome(True, context.list_sessions())
    return CommandOutcome(True, f"Unknown command: {command}\nType /help for available commands.")


def format_tool_catalog(tools: Sequence[Mapping[str, Any]], skills: Sequence[tuple[str, str]] = ()) -> str:
    """The original's listing format: ``Found N tool(s):`` then the MCP and skill groups."""
    count = len(tools) + len(skills)
    if count == 0:
        return "No tools found matching pattern: *"
    lines = [f"Found {count} tool{'s' if count > 1 else ''}:", ""]
    if tools:
        lines.append("MCP Tools:")
        for tool in tools:
            lines.append(f"  {tool.get('name', '?')}")
            if tool.get("description"):
                lines.append(f"    {tool['description']}")
    if tools and skills:
        lines.append("")
    if skills:
        lines.append("Skill Tools:")
        for name, description in skills:
            lines.append(f"  {name}")
            if description:
                lines.append(f"    {description}")
    return "\n".join(lines)


class ReplCommands:
    """The dispatcher bound to one REPL context."""

    def __init__(self, context: ReplContext) -> None:
        self.context = context

    async def handle(self, line: str) -> CommandOutcome:
        return await handle_command(line, self.context)
