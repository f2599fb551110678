"""Reads session transcripts (JSONL) into turns and renders them as a compact text for skill enhancement.

Two line formats are understood, because both end up in the files the skill-enhance hook reads:

* Anthropic-style lines ``{"id"?, "timestamp"?, "role": "user"|"assistant", "content": str | [block]}``
  with ``text``, ``tool_use`` and ``tool_result`` blocks;
* the agent's own session lines: ``toolCalls`` (``{"id", "name", "arguments": JSON text}``) on assistant
  messages, ``{"role": "tool", "toolCallId", "content"}`` results, and content as ``{"type": "text"}``
  parts.  Consecutive tool lines become one user turn carrying the tool results, which is the shape the
  Anthropic format gives them, so both formats summarise and compact alike.

Any other role (``system``, ...) is dropped, and a line that is not a JSON object is skipped with a
warning: a transcript with a damaged line is still worth reading.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import add, floordiv
from pathlib import Path
from typing import Any, Protocol

import orjson

logger = logging.getLogger("synapse.skills.conversation_reader")

CHARS_PER_TOKEN_ENV = "SYNAPSE_CHARS_PER_TOKEN"
TOOL_RESULT_SUMMARY_LIMIT_ENV = "SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT"
DEFAULT_CHARS_PER_TOKEN = 4
DEFAULT_TOOL_RESULT_SUMMARY_LIMIT = 200
ELLIPSIS = "..."
BLOCK_SEPARATOR = "\n\n"

_UTF8_MAX_BYTES = 4
_READ_BLOCK = 1 << 24
_LEADING_INT = re.compile(r"\s*([+-]?\d+)")


@dataclass(slots=True)
class ToolCall:
    id: str
    name: str
    input: Mapping[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ToolResult:
    tool_use_id: str
    content: str


@dataclass(slots=True)
class ConversationTurn:
    """One user or assistant turn; ``tool_calls`` / ``tool_results`` are None when the line had none."""

    id: str
    role: str
    content: str
    tool_calls: tuple[ToolCall, ...] | None = None
    tool_results: tuple[ToolResult, ...] | None = None
    raw_content: Any = None


@dataclass
class ConversationSummary:
    total_turns: int
    user_turns: int
    assistant_turns: int
    tool_calls: int
    unique_tools: tuple[str, ...]
    estimated_tokens: int


class _TurnLike(Protocol):
    """What ``compact`` and the statistics need from a turn, so turns built elsewhere work too."""

    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...

    @property
    def tool_calls(self) -> Sequence[Any] | None: ...

    @property
    def tool_results(self) -> Sequence[Any] | None: ...


def env_positive_int(name: str, default: int) -> int:
    """Read an integer setting the way the original's ``parseInt`` does (``"2.9"`` is 2), but fall back
    to ``default`` for a missing, non-numeric or non-positive value instead of dividing by zero."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    match = _LEADING_INT.match(raw)
    if match is None:
        return default
    value = int(match.group(1))
    return value if value > 0 else default


class ConversationReader:
    """Stateless reader; ``SYNAPSE_*`` settings are read on every use."""

    # -- reading ---------------------------------------------------------------------------------------

    def read(self, file_path: str | Path) -> list[ConversationTurn]:
        """All turns of the file; a missing file gives ``[]`` and a warning, not an exception."""
        path = Path(file_path)
        if not path.exists():
            logger.warning("Conversation file not found: %s", path)
            return []
        return self._parse_lines(_byte_lines(path))

    def read_truncated(self, file_path: str | Path, max_chars: int) -> list[ConversationTurn]:
        """The turns in the last ``max_chars`` characters of the file.

        ``max_chars`` counts characters (Unicode code points) of the UTF-8 text, including the newlines.
        Only the tail is read: at most ``4 * (max_chars + 1)`` bytes, enough for ``max_chars`` characters
        plus the one before the window, which tells whether the window starts at a line boundary.  When
        it does not, the partial first line is dropped, so a half JSON line is never parsed.
        ``max_chars <= 0`` returns ``[]`` without touching the file.
        """
        if max_chars <= 0:
            return []
        path = Path(file_path)
        if not path.exists():
            logger.warning("Conversation file not found: %s", path)
            return []
        window, starts_mid_line = self._tail_window(path, max_chars)
        window = self._align_to_line(window, starts_mid_line)
        return self._parse_lines(window.split("\n"))

    @staticmethod
    def _tail_window(path: Path, max_chars: int) -> tuple[str, bool]:
        """The last ``max_chars`` characters and whether the character before them is not a newline.

        ``4 * (max_chars + 1)`` bytes hold those characters and at least one byte of the one before.  A
        character cut at the start of the bytes decodes to replacement characters that stay in front
        of that byte, so they never reach the window, and a cut newline cannot exist (it is one byte).
        """
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            start = max(0, size - _UTF8_MAX_BYTES * (max_chars + 1))
            handle.seek(start)
            text = handle.read().decode("utf-8", errors="replace")
        if len(text) <= max_chars:
            # Only possible when the whole file was read: the window starts at the start of the file.
            return text, False
        return text[-max_chars:], text[-max_chars - 1] != "\n"

    @staticmethod
    def _align_to_line(window: str, starts_mid_line: bool) -> str:
        """Drop the partial first line of a window that starts inside a line."""
        if not starts_mid_line:
            return window
        newline = window.find("\n")
        return "" if newline == -1 else window[newline + 1 :]

    # -- parsing ---------------------------------------------------------------------------------------

    def _parse_lines(self, lines: Iterable[bytes | str]) -> list[ConversationTurn]:
        """Turns of the lines; the cyclic garbage collector is paused meanwhile, because the parsed
        values (millions of containers on a big transcript) hold no cycles and would otherwise be
        traversed again and again as they accumulate."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._parse(lines)
        finally:
            if paused:
                gc.enable()

    def _parse(self, lines: Iterable[bytes | str]) -> list[ConversationTurn]:
        turns: list[ConversationTurn] = []
        pending_results: list[ToolResult] = []
        pending_raw: list[Any] = []
        pending_id = ""

        def flush() -> None:
            nonlocal pending_results, pending_raw
            if pending_results:
                turns.append(
                    ConversationTurn(
                        id=pending_id,
                        role="user",
                        content="",
                        tool_results=tuple(pending_results),
                        raw_content=pending_raw,
                    )
                )
            pending_results, pending_raw = [], []

        loads, refused = orjson.loads, orjson.JSONDecodeError
        for number, line in enumerate(lines, start=1):
            if not line:
                continue
            try:  # the common case inline: this loop runs once per line of files of hundreds of MB
                data = loads(line)
            except refused:
                data = self._load_refused(line, number)
                if data is None:
                    continue
            if not isinstance(data, dict):
                logger.warning("Failed to parse conversation line %d: not a JSON object", number)
                continue
            role = data.get("role")
            if role == "tool":
                result = self._native_tool_result(data, number)
                if result is not None:
                    if not pending_results:
                        pending_id = f"turn-{number}"
                    pending_results.append(result)
                    pending_raw.append(data.get("content"))
                continue
            if role != "user" and role != "assistant":
                continue
            if pending_results:
                flush()
            turns.append(self._turn(data, role, number))
        flush()
        return turns

    @staticmethod
    def _load_refused(line: bytes | str, number: int) -> dict[str, Any] | None:
        """A line orjson refused (a blank line, invalid UTF-8, NaN, integers beyond 64 bits, lone
        surrogates, damage) is decided by ``json`` on the line decoded with replacement characters, as
        the whole file used to be, so the outcome is the standard library's: blank lines are skipped
        silently, a line that is no JSON object with a warning."""
        text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
        if not text.strip():
            return None
        return ConversationReader._load(text, number)

    @staticmethod
    def _load(line: str, number: int) -> dict[str, Any] | None:
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested deeper than Python recurses
            logger.warning("Failed to parse conversation line %d: %s", number, exc)
            return None
        if not isinstance(data, dict):
            logger.warning("Failed to parse conversation line %d: not a JSON object", number)
            return None
        return data

    def _turn(self, data: Mapping[str, Any], role: str, number: int) -> ConversationTurn:
        raw = data.get("content")
        turn_id = data.get("id")
        calls: list[ToolCall] | None = None
        results: list[ToolResult] | None = None
        content = raw if isinstance(raw, str) else ""
        if isinstance(raw, list):
            texts: list[str] = []
            for block in raw:
                if not isinstance(block, dict):
                    continue
                kind = block.get("type")
                if kind == "text":
                    text = block.get("text")
                    if isinstance(text, str) and text:
                        texts.append(text)
                elif kind == "tool_use":
                    if block.get("id") and block.get("name"):
                        tool_input = block.get("input")
                        call = ToolCall(
                            str(block["id"]),
                            str(block["name"]),
                            tool_input if isinstance(tool_input, dict) else {},
                        )
                        if calls is None:
                            calls = [call]
                        else:
                            calls.append(call)
                elif kind == "tool_result" and block.get("tool_use_id"):
                    result = ToolResult(str(block["tool_use_id"]), _as_text(block.get("content")))
                    if results is None:
                        results = [result]
                    else:
                        results.append(result)
            if texts:
                content = texts[0] if len(texts) == 1 else "\n".join(texts)
        native_calls = data.get("toolCalls")
        if isinstance(native_calls, list):
            native = self._native_tool_calls(native_calls)
            if native:
                calls = native if calls is None else calls + native
        return ConversationTurn(
            turn_id if isinstance(turn_id, str) and turn_id else f"turn-{number}",
            role,
            content,
            tuple(calls) if calls else None,
            tuple(results) if results else None,
            raw,
        )

    @staticmethod
    def _native_tool_calls(entries: Sequence[Any]) -> list[ToolCall]:
        """Named entries become calls; ``arguments`` that are not a JSON object give an empty input."""
        calls: list[ToolCall] = []
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("name"):
                continue
            try:
                tool_input = json.loads(entry["arguments"])
            except (KeyError, TypeError, ValueError):
                tool_input = {}
            calls.append(
                ToolCall(
                    str(entry.get("id") or ""),
                    str(entry["name"]),
                    tool_input if isinstance(tool_input, dict) else {},
                )
            )
        return calls

    @staticmethod
    def _native_tool_result(data: Mapping[str, Any], number: int) -> ToolResult | None:
        call_id = data.get("toolCallId")
        if not isinstance(call_id, str) or not call_id:
            logger.warning("Skipping tool line %d without toolCallId", number)
            return None
        return ToolResult(call_id, _as_text(data.get("content")))

    # -- rendering and statistics ----------------------------------------------------------------------

    def compact(self, turns: Sequence[_TurnLike], max_chars: int = 0) -> str:
        """``[User]``/``[Assistant]``/``[Tool]``/``[Result]`` blocks joined by a blank line.

        As in the original, a user turn carrying tool results shows only the results, and an assistant
        turn shows its text (when there is any) and its tool calls.
        With ``max_chars > 0`` only the tail is kept, starting at a line boundary when the cut falls
        inside a line.  Unlike the original, the blank separator line left at the start is dropped too,
        so the text starts with a block instead of a stray newline.
        """
        limit = env_positive_int(TOOL_RESULT_SUMMARY_LIMIT_ENV, DEFAULT_TOOL_RESULT_SUMMARY_LIMIT)
        parts: list[str] = []
        for turn in turns:
            if turn.role == "user" and turn.tool_results:
                parts.extend(f"[Result] {truncate_tool_result(r.content, limit)}" for r in turn.tool_results)
            elif turn.role == "user":
                parts.append(f"[User] {turn.content}")
            else:
                if turn.content:
                    parts.append(f"[Assistant] {turn.content}")
                parts.extend(f"[Tool] {call.name}" for call in turn.tool_calls or ())
        text = BLOCK_SEPARATOR.join(parts)
        if max_chars > 0 and len(text) > max_chars:
            tail = text[-max_chars:]
            if text[-max_chars - 1] != "\n":
                # From the first line starting inside the tail; without one (the end of a single long
                # line, find gives -1) the whole tail.
                tail = tail[tail.find("\n", 0, len(tail) - 1) + 1 :]
            text = tail.lstrip("\n")
        return text

    def extract_tool_sequence(self, turns: Sequence[_TurnLike]) -> list[str]:
        """Tool names in call order, repeats kept: the order is what a skill learns from."""
        return [call.name for turn in turns for call in turn.tool_calls or ()]

    def summarize(self, turns: Sequence[_TurnLike]) -> ConversationSummary:
        """Counts and a token estimate: per turn, ``ceil(len(JSON of its raw content, or its text) /
        chars_per_token)``, the length in characters of the compact JSON text."""
        chars_per_token = env_positive_int(CHARS_PER_TOKEN_ENV, DEFAULT_CHARS_PER_TOKEN)
        sequence = self.extract_tool_sequence(turns)
        values = [getattr(turn, "raw_content", None) or turn.content for turn in turns]
        lengths = map(_json_length, values)
        # sum(ceil(length / chars_per_token)), iterated in C: a summary of 100k turns stays in tens of ms
        estimated = sum(
            map(floordiv, map(add, lengths, repeat(chars_per_token - 1)), repeat(chars_per_token))
        )
        roles = [turn.role for turn in turns]
        return ConversationSummary(
            total_turns=len(turns),
            user_turns=roles.count("user"),
            assistant_turns=roles.count("assistant"),
            tool_calls=len(sequence),
            unique_tools=tuple(dict.fromkeys(sequence)),
            estimated_tokens=estimated,
        )


def _json_length(value: Any) -> int:
    """Characters of ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``.

    orjson writes the same text for parsed JSON values; what it refuses (lone surrogates, integers
    beyond 64 bits) goes through ``json``.
    """
    try:
        data = orjson.dumps(value)
    except TypeError:  # also nested deeper than orjson writes (255 levels)
        return len(_as_json(value))
    return len(data) if data.isascii() else len(data.decode("utf-8"))


def truncate_tool_result(content: str, limit: int) -> str:
    """Shorten a tool result to at most ``limit`` characters (for ``limit >= 3``), ending in ``...``.

    Multi-line results keep as many whole leading lines as fit with the ellipsis on its own line; a
    result whose first line alone is too long is cut by characters.
    """
    if len(content) <= limit:
        return content
    # The kept lines end at the last newline that leaves room for "\n...": one search, not a split.
    end = content.rfind("\n", 0, max(0, limit - len(ELLIPSIS)))
    if end >= 0:
        return content[:end] + "\n" + ELLIPSIS
    return content[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def _as_text(content: Any) -> str:
    """Tool-result content as text: strings as they are, text parts joined, anything else as JSON."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list) and all(isinstance(p, dict) and p.get("type") == "text" for p in content):
        return "\n".join(str(p.get("text", "")) for p in content)
    return _as_json(content)


NESTED_TOO_DEEPLY = "[content nested too deeply to show]"


def _as_json(content: Any) -> str:
    """Compact JSON of ``content``; a value nested deeper than the interpreter can recurse (a line of
    about a thousand levels still parses) becomes a placeholder, with a warning, instead of an error."""
    try:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    except RecursionError:
        logger.warning("Conversation content nested too deeply to show; replaced by a placeholder")
        return NESTED_TOO_DEEPLY


def _byte_lines(path: Path) -> Iterator[bytes]:
    """The file's lines (split at ``\\n``, as ``str.split`` would), read in blocks so the whole file
    is never held twice: once as bytes and once as lines."""
    with path.open("rb") as handle:
        rest = b""
        while block := handle.read(_READ_BLOCK):
            lines = (rest + block).split(b"\n") if rest else block.split(b"\n")
            rest = lines.pop()
            yield from lines
    yield rest
