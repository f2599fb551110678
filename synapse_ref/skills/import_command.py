"""The ``skill:import`` command: parses its options, calls the import port and explains the outcome.

The output is meant to be acted on: conflicts come with the instruction to rename in the source and
re-import, and every similar skill comes with the exact ``--continue`` / ``--merge`` options to rerun with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from synapse_ref.js_text import trim

IMPORT_COMMAND = "skill:import"

RENAME_GUIDANCE = "Please rename the conflicting skills in the source directory and re-import."

IMPORT_HELP = """\
skill:import - Import skills from local directory or remote URL

USAGE:
    skill:import <source> [options]

ARGUMENTS:
    <source>    Local directory path or remote URL (a skill, a directory of skills or a skills/ wrapper)

OPTIONS:
    --continue=<names>         Import these skills without the similarity check (comma-separated)
    --merge=<source:target>    Merge a source skill into an existing similar skill (comma-separated)
    -h, --help                 Show this help message

EXAMPLES:
    skill:import ./my-skills
    skill:import ./my-skills --continue=commit-helper
    skill:import ./my-skills --merge=commit-helper:git-commit"""


@dataclass
class CommandResult:
    stdout: str
    stderr: str
    exit_code: int


class SkillImportManager(Protocol):
    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Mapping[str, Any]: ...


class UsageError(ValueError):
    """A malformed ``skill:import`` command line: answered with the problem and the usage."""


@dataclass
class ImportRequest:
    source: str | None
    continue_skills: tuple[str, ...] = ()
    merge_into: tuple[tuple[str, str], ...] = ()
    help: bool = False


class SkillCommandHandler:
    """Runs ``skill:*`` commands; only ``skill:import`` is needed for the import feedback."""

    def __init__(self, manager: SkillImportManager) -> None:
        self._manager = manager

    def execute(self, command: str) -> CommandResult:
        try:
            words = split_command_args(command)
            if not words or words[0] != IMPORT_COMMAND:
                raise UsageError(f"Unknown skill command: {command}")
            request = parse_import_arguments(words[1:])
        except ValueError as exc:  # an unclosed quote, and UsageError
            return CommandResult("", f"{exc}\n\n{IMPORT_HELP}", 1)
        if request.help:
            return CommandResult(IMPORT_HELP, "", 0)
        if request.source is None:
            return CommandResult(IMPORT_HELP, "", 1)
        try:
            result = self._manager.import_skills(
                request.source,
                continue_skills=request.continue_skills,
                merge_into=request.merge_into,
            )
        except Exception as exc:  # the port's failure is the command's answer, not a crash
            return CommandResult("", str(exc) or type(exc).__name__, 1)
        return CommandResult(format_import_result(result), "", 0)


_QUOTED_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def split_command_args(command: str) -> list[str]:
    """The words of a command line as the original's ``parseCommandArgs`` reads them: separated by spaces
    and tabs only; ``'...'`` and ``"..."`` quote (the quotes are removed), and inside quotes a backslash
    escapes the quote, ``n``, ``t``, ``r`` and itself; outside quotes a backslash is a character, so a
    Windows path (``C:\\skills``) keeps its separators where a POSIX shell reading (``shlex``) would
    drop them.  An empty word (``""``) is no word; an unclosed quote is an error."""
    words: list[str] = []
    current: list[str] = []
    quote: str | None = None
    index = 0
    while index < len(command):
        char = command[index]
        if quote is not None:
            following = command[index + 1 : index + 2]
            if char == quote:
                quote = None
            elif char == "\\" and following and (following == quote or following in _QUOTED_ESCAPES):
                current.append(following if following == quote else _QUOTED_ESCAPES[following])
                index += 1
            else:
                current.append(char)
        elif char in "\"'":
            quote = char
        elif char in " \t":
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
        index += 1
    if quote is not None:
        raise UsageError("Unclosed quote in arguments")
    if current:
        words.append("".join(current))
    return words


def parse_import_arguments(args: Sequence[str]) -> ImportRequest:
    """``<source> [--continue=a,b | --continue a,b]... [--merge=src:dst[,..] | --merge src:dst]...``."""
    source: str | None = None
    continue_skills: list[str] = []
    merge_into: list[tuple[str, str]] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg in ("-h", "--help"):
            return ImportRequest(source, help=True)
        option, has_value, value = arg.partition("=")
        if option in ("--continue", "--merge"):
            if not has_value:
                if index >= len(args):
                    raise _invalid(arg)
                value = args[index]
                index += 1
            items = _split_list(value)
            if option == "--continue":
                continue_skills.extend(items)
            else:
                for item in items:
                    skill, _, target = (trim(part) for part in item.partition(":"))
                    if not skill or not target:
                        raise _invalid(arg)
                    merge_into.append((skill, target))  # "a : b" is a:b, as the original trims both
        elif source is None and not arg.startswith("-"):
            source = arg
        else:
            raise _invalid(arg)
    return ImportRequest(source, tuple(continue_skills), tuple(merge_into))


def _split_list(value: str) -> list[str]:
    return [item for item in map(trim, value.split(",")) if item]


def _invalid(argument: str) -> UsageError:
    return UsageError(f"Invalid argument: {argument}")


def format_import_result(result: Mapping[str, Any]) -> str:
    """The original's report: one section per non-empty list, each actionable."""
    imported, skipped = result["imported"], result["skipped"]
    conflicts, similar = result["conflicts"], result["similar"]
    lines: list[str] = []
    if imported:
        lines.append(f"Imported: {', '.join(imported)}")
    if skipped:
        lines.append(f"Skipped: {', '.join(skipped)}")
    if conflicts:
        lines.append("Conflicts:")
        lines.extend(f"  - {conflict['name']}" for conflict in conflicts)
        lines.append(RENAME_GUIDANCE)
    if similar:
        lines.append("Similar Skills:")
        for entry in similar:
            name, target = entry["name"], entry["similarTo"]
            lines.append(f"  - {name} ~ {target}: {entry['reason']}")
            lines.append(f"    --continue={name}")
            lines.append(f"    --merge={name}:{target}")
    if not lines:
        return "Import completed. No skills found."
    return "\n".join(lines)
