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
import logging
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgspec
import orjson

from synapse_ref.context.settings import parse_env_positive_int
from synapse_ref.js_text import array_join_text, json_parse, json_stringify, trim

logger = logging.getLogger("synapse.skills.conversation_reader")

CHARS_PER_TOKEN_ENV = "SYNAPSE_CHARS_PER_TOKEN"
TOOL_RESULT_SUMMARY_LIMIT_ENV = "SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT"
DEFAULT_CHARS_PER_TOKEN = 4
DEFAULT_TOOL_RESULT_SUMMARY_LIMIT = 200
ELLIPSIS = "..."
BLOCK_SEPARATOR = "\n\n"
_USER, _ASSISTANT, _TOOL, _RESULT = (
    BLOCK_SEPARATOR + label for label in ("[User] ", "[Assistant] ", "[Tool] ", "[Result] ")
)

_UTF8_MAX_BYTES = 4
_READ_BLOCK = 1 << 20


# The records are msgspec structs rather than dataclasses: their constructor runs in C, which matters
# when a transcript of hundreds of MB makes hundreds of thousands of them.  They hold parsed JSON only,
# which has no reference cycles, so the cyclic garbage collector need not track them (gc=False).


class ToolCall(msgspec.Struct, gc=False):
    id: str
    name: str
    input: Mapping[str, Any] = msgspec.field(default_factory=dict)


class ToolResult(msgspec.Struct, gc=False):
    tool_use_id: str
    content: str


class ConversationTurn(msgspec.Struct, gc=False):
    """One user or assistant turn; ``tool_calls`` / ``tool_results`` are None when the line had none."""

    id: str
    role: str
    content: str
    tool_calls: tuple[ToolCall, ...] | None = None
    tool_results: tuple[ToolResult, ...] | None = None
    raw_content: Any = None


class _Line(msgspec.Struct, gc=False):
    """The fields of a transcript line the reader uses, as ``dict.get`` would give them.

    Decoding into this type instead of a dict skips the other fields (``timestamp``, ...) without
    building them, and never fails on a field's type: only a line that is not a JSON object is refused.
    """

    role: Any = None
    id: Any = None
    content: Any = None
    toolCalls: Any = None  # named as in the JSON
    toolCallId: Any = None


_LINE_DECODER = msgspec.json.Decoder(_Line)
_REFUSED = (msgspec.MsgspecError, ValueError, RecursionError)


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
    return parse_env_positive_int(os.environ.get(name), default)


class ConversationReader:
    """Stateless reader; ``SYNAPSE_*`` settings are read on every use."""

    # -- reading ---------------------------------------------------------------------------------------

    def read(self, file_path: str | Path) -> list[ConversationTurn]:
        """All turns of the file; a missing file gives ``[]`` and a warning, not an exception."""
        path = Path(file_path)
        if not path.exists():
            logger.warning("Conversation file not found: %s", path)
            return []
        return self._parse_blocks(_line_blocks(path))

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
        return self._parse_blocks([window.encode("utf-8")])

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

    def _parse_blocks(self, blocks: Iterable[bytes]) -> list[ConversationTurn]:
        """Turns of the blocks of whole lines; the cyclic garbage collector is paused meanwhile, because
        the parsed values (millions of containers on a big transcript) hold no cycles and would
        otherwise be traversed again and again as they accumulate."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._parse(blocks)
        finally:
            if paused:
                gc.enable()

    def _parse(self, blocks: Iterable[bytes]) -> list[ConversationTurn]:
        turns: list[ConversationTurn] = []
        pending_results: list[ToolResult] = []
        pending_raw: list[Any] = []
        pending_id = ""
        generated: list[int] = []  # the turns whose id is made up, by index

        def flush() -> None:
            nonlocal pending_results, pending_raw
            if pending_results:
                generated.append(len(turns))
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

        first = 1
        for block in blocks:
            numbers, lines, first = self._decode_block(block, first)
            for number, line in zip(numbers, lines, strict=True):
                role = line.role
                if role == "user" or role == "assistant":
                    if pending_results:
                        flush()
                    turn_id = line.id
                    if type(turn_id) is not str or not turn_id:
                        turn_id = f"turn-{number}"
                        generated.append(len(turns))
                    turns.append(self._turn(line, role, turn_id))
                elif role == "tool":
                    result = self._native_tool_result(line, number)
                    if result is not None:
                        if not pending_results:
                            pending_id = f"turn-{number}"
                        pending_results.append(result)
                        pending_raw.append(line.content)
        flush()
        if generated:
            _set_apart_generated_ids(turns, generated)
        return turns

    def _decode_block(self, block: bytes, first: int) -> tuple[Iterable[int], list[_Line], int]:
        """The lines of ``block`` (whole lines, the first one numbered ``first``), their numbers and the
        number of the line after the block.

        One ``decode_lines`` call decodes the whole block in C.  It reads a stream of JSON values,
        though, not lines: it skips blank lines, would read two values on one line and one value over
        two lines.  So its result is taken only when every line starts with ``{`` and ends with ``}``
        (see :func:`_lines_are_delimited`), which keeps each value within its line, and it returns
        as many values as the block has lines, which leaves exactly one value per line.  Otherwise,
        or when it refuses a line, the block is decoded again line by line: a bad line costs its block
        the fast path, never its warning or its neighbours.
        """
        newlines = block.count(b"\n")
        after = first + newlines
        count = newlines + (not block.endswith(b"\n"))  # the file's last line may lack its newline
        if _lines_are_delimited(block):
            try:
                lines = _LINE_DECODER.decode_lines(block)
            except _REFUSED:
                pass
            else:
                if len(lines) == count:
                    return range(first, first + count), lines, after
        numbers: list[int] = []
        lines = []
        for number, raw in enumerate(block.split(b"\n"), start=first):
            line = self._decode_line(raw, number) if raw else None
            if line is not None:
                numbers.append(number)
                lines.append(line)
        return numbers, lines, after

    def _decode_line(self, raw: bytes, number: int) -> _Line | None:
        try:
            return _LINE_DECODER.decode(raw)
        except _REFUSED:
            data = self._load_refused(raw, number)
        if data is None:
            return None
        get = data.get
        return _Line(get("role"), get("id"), get("content"), get("toolCalls"), get("toolCallId"))

    @staticmethod
    def _load_refused(line: bytes, number: int) -> dict[str, Any] | None:
        """A line msgspec refused (a blank line, invalid UTF-8, NaN, lone surrogates, not an object,
        damage) is decided on the line decoded with replacement characters, as the original decides it:
        a line blank to ``trim()`` is skipped silently, one ``JSON.parse`` refuses (``NaN`` too) or that
        is no JSON object with a warning."""
        text = line.decode("utf-8", errors="replace")
        if not trim(text):  # the original's line.trim(): U+FEFF is white space, U+001C and U+0085 are not
            return None
        return ConversationReader._load(text, number)

    @staticmethod
    def _load(line: str, number: int) -> dict[str, Any] | None:
        try:
            data = json_parse(line)  # JSON.parse, as in the original: a line with NaN is no JSON
        except (ValueError, RecursionError) as exc:  # RecursionError: nested deeper than Python recurses
            logger.warning("Failed to parse conversation line %d: %s", number, exc)
            return None
        if not isinstance(data, dict):
            logger.warning("Failed to parse conversation line %d: not a JSON object", number)
            return None
        return data

    def _turn(self, line: _Line, role: str, turn_id: str) -> ConversationTurn:
        """The turn of a user or assistant line.  Written for speed (exact type checks, the common
        shapes first): it runs once per line of transcripts of hundreds of MB."""
        raw = line.content
        native_calls = line.toolCalls
        if type(raw) is str and native_calls is None:  # a plain text turn: most user prompts
            return ConversationTurn(turn_id, role, raw, None, None, raw)
        content = raw if type(raw) is str else ""
        calls: tuple[ToolCall, ...] = ()
        results: tuple[ToolResult, ...] = ()
        if type(raw) is list:
            texts: list[str] = []
            for block in raw:
                if type(block) is not dict:
                    continue
                kind = block.get("type")
                if kind == "text":
                    text = block.get("text")
                    if type(text) is str and text:
                        texts.append(text)
                elif kind == "tool_use":
                    call_id, name = block.get("id"), block.get("name")
                    if call_id and name:
                        tool_input = block.get("input")
                        calls += (
                            ToolCall(
                                call_id if type(call_id) is str else str(call_id),
                                name if type(name) is str else str(name),
                                tool_input if type(tool_input) is dict else {},
                            ),
                        )
                elif kind == "tool_result":
                    call_id = block.get("tool_use_id")
                    if call_id:
                        results += (
                            ToolResult(
                                call_id if type(call_id) is str else str(call_id),
                                _as_text(block.get("content")),
                            ),
                        )
            if texts:
                content = texts[0] if len(texts) == 1 else "\n".join(texts)
        if type(native_calls) is list:
            calls += tuple(self._native_tool_calls(native_calls))
        return ConversationTurn(turn_id, role, content, calls or None, results or None, raw)

    @staticmethod
    def _native_tool_calls(entries: Sequence[Any]) -> list[ToolCall]:
        """Named entries become calls; ``arguments`` that are not a JSON object give an empty input."""
        calls: list[ToolCall] = []
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("name"):
                continue
            tool_input = _arguments_input(entry.get("arguments"))
            calls.append(
                ToolCall(
                    str(entry.get("id") or ""),
                    str(entry["name"]),
                    tool_input if isinstance(tool_input, dict) else {},
                )
            )
        return calls

    @staticmethod
    def _native_tool_result(line: _Line, number: int) -> ToolResult | None:
        call_id = line.toolCallId
        if not isinstance(call_id, str) or not call_id:
            logger.warning("Skipping tool line %d without toolCallId", number)
            return None
        return ToolResult(call_id, _as_text(line.content))

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
        # Each block goes in as two pieces, "<separator>[Label] " and its text, joined once at the end:
        # a text is copied only by that join (an f-string per block would copy it twice, and a
        # transcript's compact text is tens of MB).
        pieces: list[str] = []
        add = pieces.append
        for turn in turns:
            if turn.role == "user" and turn.tool_results:
                for result in turn.tool_results:
                    add(_RESULT)
                    add(truncate_tool_result(result.content, limit))
            elif turn.role == "user":
                add(_USER)
                add(turn.content)
            else:
                if turn.content:
                    add(_ASSISTANT)
                    add(turn.content)
                for call in turn.tool_calls or ():
                    add(_TOOL)
                    add(call.name)
        if pieces:
            pieces[0] = pieces[0][len(BLOCK_SEPARATOR) :]
        text = "".join(pieces)
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
        # One pass over the turns counts the roles and sums the estimate: a summary of 100k turns is a
        # third faster than with a pass for each (each pass reaches every turn in memory again).
        estimated = users = assistants = 0
        rounding = chars_per_token - 1
        for turn in turns:
            role = turn.role
            if role == "user":
                users += 1
            elif role == "assistant":
                assistants += 1
            estimated += (_json_length(getattr(turn, "raw_content", None) or turn.content) + rounding) // (
                chars_per_token
            )
        return ConversationSummary(
            total_turns=len(turns),
            user_turns=users,
            assistant_turns=assistants,
            tool_calls=len(sequence),
            unique_tools=tuple(dict.fromkeys(sequence)),
            estimated_tokens=estimated,
        )


def _arguments_input(arguments: Any) -> Any:
    """A native tool call's ``arguments`` as ``JSON.parse`` reads them (``NaN`` and ``Infinity`` are no
    JSON), or ``{}`` when they are missing or no JSON."""
    try:
        return json_parse(arguments)
    except (TypeError, ValueError):
        return {}


def _json_length(value: Any) -> int:
    """Characters of the compact JSON text of ``value``, as the original measures ``JSON.stringify``.

    orjson writes the same text for parsed JSON values, with one difference left on purpose: a number
    with an exponent or without fraction (``1e+16``, ``2.0``) where JavaScript writes ``10000000000000000``
    and ``2``.  Telling such values apart costs a scan of every text, more than the whole summary does
    otherwise.  What orjson refuses (lone surrogates, integers beyond 64 bits) goes through
    ``json_stringify``.
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
    if type(content) is str:
        return content
    if content is None:
        return ""
    if isinstance(content, list) and all(isinstance(p, dict) and p.get("type") == "text" for p in content):
        return "\n".join(array_join_text(p.get("text")) for p in content)
    return _as_json(content)


NESTED_TOO_DEEPLY = "[content nested too deeply to show]"


def _as_json(content: Any) -> str:
    """``JSON.stringify(content)``: compact, with JavaScript's numbers (``2.0`` is ``2``) and key order
    (array-index keys first); a value nested deeper than the interpreter can recurse (a line of about a
    thousand levels still parses) becomes a placeholder, with a warning, instead of an error."""
    try:
        return json_stringify(content)
    except RecursionError:
        logger.warning("Conversation content nested too deeply to show; replaced by a placeholder")
        return NESTED_TOO_DEEPLY


# A newline that does not end a line closing an object, or does not start a line opening one: one
# search that jumps from newline to newline in C (the lookbehinds only run where a newline is found).
_UNDELIMITED_NEWLINE = re.compile(rb"\n(?:(?<!}\n)(?<!}\r\n)|[^{])")


def _lines_are_delimited(block: bytes) -> bool:
    """Whether every line of ``block`` starts with ``{`` and every newline follows a ``}``.

    Then no JSON value continues past a newline: a newline outside a string is whitespace between
    tokens, and a ``}`` followed by whitespace and ``{`` is never valid inside a value (a comma must
    come between).  So each line starts a value of its own and none spans two lines.  The last line
    of the file may lack its newline; the first line of the block must open an object.
    """
    return block[:1] == b"{" and _UNDELIMITED_NEWLINE.search(block) is None


def _set_apart_generated_ids(turns: list[ConversationTurn], generated: list[int]) -> None:
    """A made-up id ``turn-<line>`` can equal the id another line gives itself (``"id": "turn-7"``);
    such a made-up id gets the first free ``-<n>`` suffix, so it differs from every other turn's id
    while the ids the lines give stay as they are."""
    ids = [turn.id for turn in turns]
    taken = set(ids)
    if len(taken) == len(ids):  # the usual case: made-up ids never equal each other
        return
    made_up = set(generated)
    given = {ids[i] for i in range(len(ids)) if i not in made_up}
    for index in generated:
        turn = turns[index]
        if turn.id in given:
            suffix = 2
            while f"{turn.id}-{suffix}" in taken:
                suffix += 1
            turn.id = f"{turn.id}-{suffix}"
            taken.add(turn.id)


def _line_blocks(path: Path) -> Iterator[bytes]:
    """The file in blocks of whole lines (the last one may lack its newline), so the whole file is
    never held twice: once as bytes and once parsed.  Small blocks keep the buffers and the records
    of a block in memory the next block reuses; a fresh buffer of many MB per block costs a page
    fault per 4 KB, a tenth of the read's time."""
    with path.open("rb") as handle:
        rest: list[bytes] = []  # a line longer than a block, in parts: joined once, not re-copied
        while block := handle.read(_READ_BLOCK):
            cut = block.rfind(b"\n") + 1
            if cut == 0:
                rest.append(block)
                continue
            if rest:
                rest.append(block[:cut])
                yield b"".join(rest)
                rest = []
            else:
                yield block[:cut] if cut < len(block) else block
            if cut < len(block):
                rest.append(block[cut:])
    if rest:
        yield b"".join(rest)
