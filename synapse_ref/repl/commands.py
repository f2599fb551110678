"""Slash commands of the REPL as plain functions returning the text to show.

They never write to the terminal themselves, so they can be checked without one; the front end
(``synapse_ref.repl.app``) prints what they return.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from synapse_ref.js_text import locale_compare_key, trim
from synapse_ref.session.paths import synapse_home
from synapse_ref.skills.skill_file import strip_wrapping_quotes

SKILL_ENHANCE_PROGRESS_TEXT = "Analyzing skill enhancement..."
HIGHLIGHT_START = "\x1b[1;93m"
HIGHLIGHT_END = "\x1b[0m"
RULE = "═" * 50

UNAVAILABLE = "{} unavailable in this context."
COMPACT_FAILED_KEPT = "❌ 压缩失败，保持原历史不变"
COMPACT_NOOP = "✅ 无需压缩：历史消息较短或已足够精简"
COMPACT_DONE = (
    "✅ 压缩完成：{previous:,} → {current:,} tokens\n释放 {freed:,} tokens，删除 {files} 个卸载文件"
)
COMPACT_ERROR = "❌ 压缩失败：{reason}"
NO_ACTIVE_SESSION = "No active session."
CLEARED = "Conversation history cleared."
CLEAR_FAILED = "Failed to clear session: {reason}"

HELP_COMMANDS = ("/help", "/h", "/?")
HELP_TEXT = """Synapse Agent - Help
══════════════════════════════════════════════════
Commands (anything else is sent to the model):
  /help, /h, /?      Show this help
  /exit, /quit, /q   Leave the REPL (the session is kept and can be resumed)
  /clear             Forget the current conversation (history, offloaded files and usage)
  /compact           Summarise older messages to free context now
  /cost              Token usage and cost of this session
  /skills            List installed skills (also /skill:list)
  /tools             List available tools"""


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
    """Whether the line was a command, what to show, and whether the REPL should end (the program says
    goodbye itself, as it does when its input ends)."""

    handled: bool
    output: str = ""
    exit: bool = False


@dataclass
class ReplContext:
    """What the commands may reach: a missing runner or tool catalog gives an "unavailable" answer instead
    of failing; without a home, ``/skills`` reads ``$SYNAPSE_HOME`` (else ``~/.synapse``)."""

    runner: Any = None
    synapse_home: Path | None = None
    tool_catalog: ToolCatalog | None = None


# -- display helpers ---------------------------------------------------------------------------------------


def format_stream_text(text: str, *, is_tty: bool) -> str:
    """Highlight the skill-enhancement progress line, but only on a terminal (no escapes in pipes/logs)."""
    if is_tty and SKILL_ENHANCE_PROGRESS_TEXT in text:
        return f"{HIGHLIGHT_START}{text}{HIGHLIGHT_END}"
    return text


# -- /compact ----------------------------------------------------------------------------------------------


async def compact_command(runner: Any) -> str:
    """Waits for the compaction to finish, so the prompt comes back only with the final result; an error
    without a message is named by its type."""
    force_compact = getattr(runner, "force_compact", None)
    if not callable(force_compact):
        return UNAVAILABLE.format("Compact")
    try:
        result: CompactResultLike = await force_compact()
    except Exception as error:
        return COMPACT_ERROR.format(reason=str(error) or type(error).__name__)
    if not result.success:
        return COMPACT_FAILED_KEPT
    if result.freed_tokens <= 0:
        return COMPACT_NOOP
    return COMPACT_DONE.format(
        previous=result.previous_tokens,
        current=result.current_tokens,
        freed=result.freed_tokens,
        files=len(result.deleted_files),
    )


# -- /cost -------------------------------------------------------------------------------------------------


def cost_command(runner: Any) -> str:
    get_usage = getattr(runner, "get_session_usage", None)
    if not callable(get_usage):
        return UNAVAILABLE.format("Cost stats")
    usage = get_usage()
    if usage is None:
        return NO_ACTIVE_SESSION
    from synapse_ref.session.usage import format_cost_output

    return format_cost_output(usage)


# -- /skills -----------------------------------------------------------------------------------------------


_DESCRIPTION_LINE = re.compile(
    r"^[ \t]*(?:\*\*)?description(?:\*\*)?[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE
)


def skill_description(skill_md: str) -> str | None:
    """The first ``description:`` line (front matter comes first, so it wins over the body), without
    the quotes that wrap it; None when there is none or it is empty."""
    found = _DESCRIPTION_LINE.search(skill_md)
    return (strip_wrapping_quotes(found.group(1)) if found else "") or None


def _shown_name(name: str) -> str:
    """A directory entry's name as Node and bun read it: bytes that are not UTF-8 become U+FFFD (one per
    maximal invalid sequence), where Python keeps them as lone surrogates that no terminal, pipe or JSON
    reply can carry."""
    return os.fsencode(name).decode("utf-8", errors="replace")


def _utf16_units(text: str) -> bytes:
    """A key comparing strings as JavaScript's default ``sort()`` does, by UTF-16 code units: a character
    outside the Basic Multilingual Plane (a surrogate pair, from U+D800) comes before U+E000..U+FFFF
    (full-width forms, U+FFFD), where Python's code points put it after them.  Big-endian bytes compare as
    their units do."""
    return text.encode("utf-16-be")


def newest_versions_first(names: Iterable[str]) -> list[str]:
    """Version names as the original lists them (``.sort().reverse()``): by UTF-16 code units, the
    greatest first, so ``v9`` comes before ``v10`` and ``v-ｚ`` before ``v-🚀``."""
    return sorted(names, key=_utf16_units, reverse=True)


def skills_command(skills_dir: Path) -> str:
    """Lists ``<skills_dir>/<name>/SKILL.md`` with description and versions; tells where to create
    skills when there are none.  Hidden directories (an interrupted import's staging copy) are no skills,
    as in the original's index, which lists them in ``localeCompare`` order of their names (case does not
    put ``Beta`` before ``alpha``)."""
    lines = ["Available Skills", RULE]
    if not skills_dir.is_dir():
        lines += ["  No skills directory found.", f"  Create skills in: {skills_dir}"]
        return "\n".join(lines)
    try:
        skills = sorted(
            (p for p in skills_dir.iterdir() if p.name[:1] != "." and (p / "SKILL.md").is_file()),
            key=lambda p: locale_compare_key(_shown_name(p.name)),
        )
        if not skills:
            lines += ["  No skills installed.", f"  Create skills in: {skills_dir}"]
            return "\n".join(lines)
        for skill in skills:
            description = skill_description(
                (skill / "SKILL.md").read_text(encoding="utf-8", errors="replace")
            )
            versions_dir = skill / "versions"
            versions = (
                newest_versions_first(
                    _shown_name(v.name) for v in versions_dir.iterdir() if v.is_dir() and v.name[:1] != "."
                )
                if versions_dir.is_dir()
                else []
            )
            lines += [
                f"  {_shown_name(skill.name)}",
                f"    {description or '(No description)'}",
                f"    versions: {', '.join(versions) if versions else '(none)'}",
            ]
    except OSError as error:
        lines.append(f"  Error reading skills: {error}")
    return "\n".join(lines)


# -- /tools ------------------------------------------------------------------------------------------------

_FOUND_HEADER = re.compile(r"\AFound \d+.*\n\n?")


def tools_command(catalog: ToolCatalog) -> str:
    """The catalog's listing without its ``Found N tools`` count line (the header says it already)."""
    body = _FOUND_HEADER.sub("", catalog.format_search_result())
    return "\n".join(["Available Tools", RULE, body.rstrip()])


# -- dispatcher --------------------------------------------------------------------------------------------


async def handle_command(line: str, context: ReplContext) -> CommandOutcome:
    """Run a slash command; any other input is not handled (it goes to the model)."""
    text = trim(line)
    if not text.startswith("/"):
        return CommandOutcome(False)
    command = text.lower()
    runner = context.runner
    if command in ("/exit", "/quit", "/q"):
        return CommandOutcome(True, exit=True)
    if command in HELP_COMMANDS:
        return CommandOutcome(True, HELP_TEXT)
    if command == "/compact":
        return CommandOutcome(True, await compact_command(runner))
    if command == "/cost":
        return CommandOutcome(True, cost_command(runner))
    if command == "/clear":
        clear = getattr(runner, "clear_session", None)
        if not callable(clear):
            return CommandOutcome(True, UNAVAILABLE.format(command))
        try:
            clear()
        except Exception as error:  # reported, and the REPL goes on (the original prints the same line)
            return CommandOutcome(True, CLEAR_FAILED.format(reason=str(error) or type(error).__name__))
        return CommandOutcome(True, CLEARED)
    if command in ("/skills", "/skill:list"):
        home = context.synapse_home if context.synapse_home is not None else synapse_home()
        return CommandOutcome(True, skills_command(home / "skills"))
    if command == "/tools":
        if context.tool_catalog is None:
            return CommandOutcome(True, UNAVAILABLE.format(command))
        return CommandOutcome(True, tools_command(context.tool_catalog))
    return CommandOutcome(True, f"Unknown command: {command}\nType /help for available commands.")


class ReplCommands:
    """The dispatcher bound to one REPL context."""

    def __init__(self, context: ReplContext) -> None:
        self.context = context

    async def handle(self, line: str) -> CommandOutcome:
        return await handle_command(line, self.context)
