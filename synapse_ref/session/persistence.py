"""JSONL history files and atomic file replacement.

Encoding and decoding go through ``orjson`` (several times faster than ``json`` on long histories) with
``json`` as the fallback for what ``orjson`` refuses but ``json`` accepts: integers beyond 64 bits, and
strings holding lone surrogates (which ``JSON.stringify`` writes as ``\\udXXX`` escapes).  The output is
plain JSON either way, so other tools keep reading the files.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import json
import logging
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from synapse_ref.session.durability import device_orders_renames

try:  # POSIX; elsewhere appends are not serialised between processes.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

logger = logging.getLogger("synapse.session.persistence")

_DUMPS_OPTIONS = orjson.OPT_NON_STR_KEYS
TEMP_MARKER = ".tmp-"
"""Temporary files are ``<target>.tmp-<pid>-<random hex>`` next to their target."""


# -- encoding ------------------------------------------------------------------------------------------


def dumps(value: Any, *, indent: bool = False, newline: bool = False) -> bytes:
    """UTF-8 JSON of ``value`` (non-ASCII written as is); a value JSON cannot hold raises ``TypeError``."""
    options = _DUMPS_OPTIONS | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        return orjson.dumps(value, option=options | (orjson.OPT_APPEND_NEWLINE if newline else 0))
    except orjson.JSONEncodeError:
        # A lone surrogate cannot be UTF-8: "backslashreplace" writes it as the JSON escape \udXXX.
        text = json.dumps(value, ensure_ascii=False, indent=2 if indent else None, allow_nan=False)
        return text.encode("utf-8", errors="backslashreplace") + (b"\n" if newline else b"")


_SEPARATOR_VALUE = "\x00\x1e"
_SEPARATOR = b',"\\u0000\\u001e",'
"""How orjson writes ``_SEPARATOR_VALUE`` between two elements of an array."""
Bytes = bytes | memoryview


def to_jsonl(messages: Iterable[Any]) -> Bytes:
    """One line per message, each as :func:`dumps` writes it.

    orjson's fixed cost per call is most of the time for short messages, so the messages go through
    one call, as an array with a separator string after each message, and each separator is then
    replaced by a newline; a view drops the array's brackets without copying (every fresh buffer of a
    large batch costs its page faults).  The separator cannot be confused with message text: a message
    holding that string makes the count of separators wrong, and that batch (like one orjson refuses)
    is encoded message by message instead.
    """
    items = list(messages)
    if len(items) < 2:
        return dumps(items[0], newline=True) if items else b""
    interleaved: list[Any] = [_SEPARATOR_VALUE] * (2 * len(items) + 1)
    interleaved[: 2 * len(items) : 2] = items
    interleaved[-1] = 0  # [m1,"sep",m2,"sep",0] -> [m1\nm2\n0]
    for option in (0, _DUMPS_OPTIONS):  # OPT_NON_STR_KEYS halves orjson's speed: only when needed
        try:
            text = orjson.dumps(interleaved, option=option)
        except orjson.JSONEncodeError:
            continue
        lines = text.replace(_SEPARATOR, b"\n")
        # Each replacement shortens the text by the same length: this says that there were exactly
        # as many separators as messages, without a pass to count them.
        if len(lines) == len(text) - len(items) * (len(_SEPARATOR) - 1):
            return memoryview(lines)[1:-2]
        break
    return b"".join([dumps(message, newline=True) for message in items])


def loads(data: bytes | str) -> Any:
    """Parse one JSON text; ``ValueError`` (``RecursionError`` included) when it is not valid JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        try:
            return json.loads(text, parse_constant=_refuse_constant)
        except RecursionError as exc:
            raise ValueError(f"nested too deeply: {exc}") from exc


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON: JSON.parse refuses them, so a file holding them is not shared data.
    raise ValueError(f"{name} is not a JSON value")


# -- reading the history -------------------------------------------------------------------------------


def message_problem(value: Any) -> str | None:
    """Why a parsed line is no message, or None: a message is an object with a string ``role`` whose
    ``toolCalls``, when given, is an array.  Anything else would make every later replay fail."""
    if not isinstance(value, dict):
        return f"not a message object but {type(value).__name__}"
    if not isinstance(value.get("role"), str):
        return "a message without a string role"
    calls = value.get("toolCalls")
    if calls is not None and not isinstance(calls, list):
        return "toolCalls is not an array"
    return None


def is_message(value: Any) -> bool:
    # message_problem(value) is None, in the form the fast path can afford for every line.
    return (
        isinstance(value, dict)
        and isinstance(value.get("role"), str)
        and (value.get("toolCalls") is None or isinstance(value["toolCalls"], list))
    )


class _Bad:
    """Stands for a line that is not JSON."""


_BAD = _Bad()


def _parse_line(line: bytes) -> Any:
    try:
        return loads(line)
    except ValueError:
        return _BAD


BOM = codecs.BOM_UTF8
"""A byte-order mark opening a history (as editors on Windows save text) is no part of its first line:
the original trims the file's text before splitting it, and JavaScript's ``trim()`` removes the mark."""

READ_CHUNK = 1 << 16
"""Bytes read at a time when loading a history: the file is never held whole next to its messages."""


def _parse_lines(lines: list[bytes], first: int, source: Path | str, warn: bool) -> list[dict[str, Any]]:
    """The messages of ``lines``, the first of which is line number ``first`` of ``source``.  Parsing
    allocates millions of objects and frees none: callers pause the cyclic GC around it."""
    try:
        values: list[Any] = list(map(orjson.loads, filter(None, lines)))
    except orjson.JSONDecodeError:
        pass
    else:
        if all(map(is_message, values)):  # one pass: each dict is touched once
            return values
    return _parse_each(lines, first, source, warn)


def parse_jsonl(data: bytes, source: Path | str, *, warn: bool = True) -> list[dict[str, Any]]:
    """The messages of JSONL ``data``: a line that is not JSON, or JSON but no message, is skipped with a
    warning so that one bad write does not make the whole conversation unreadable."""
    enabled = gc.isenabled()
    gc.disable()  # see read_jsonl
    try:
        return _parse_lines(data.split(b"\n"), 1, source, warn)
    finally:
        if enabled:
            gc.enable()


def _parse_each(lines: list[bytes], first: int, source: Path | str, warn: bool) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        value = _parse_line(line)
        problem = "not valid JSON" if value is _BAD else message_problem(value)
        if problem is None:
            messages.append(value)
        elif warn:
            logger.warning("Skipped corrupted JSONL line %d in %s: %s", number, source, problem)
    return messages


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every message of the file (a missing file has none); see :func:`parse_jsonl`.

    The file is read ``READ_CHUNK`` bytes at a time and each chunk's complete lines are parsed before
    the next is read, so the peak memory is the messages plus one chunk, not the messages plus the
    file and its lines.
    """
    try:
        handle = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by the with below
    except FileNotFoundError:
        return []
    messages: list[dict[str, Any]] = []
    pending: list[bytes] = []  # the start of a line that continues in the next chunk
    number = 1
    enabled = gc.isenabled()
    gc.disable()
    try:
        with handle:
            while chunk := handle.read(READ_CHUNK):
                if number == 1 and not pending and chunk.startswith(BOM):
                    chunk = chunk[len(BOM) :]
                lines = chunk.split(b"\n")
                del chunk
                if len(lines) == 1:
                    pending.append(lines[0])
                    continue
                if pending:
                    lines[0] = b"".join([*pending, lines[0]])
                pending = [lines.pop()]
                messages += _parse_lines(lines, number, path, True)
                number += len(lines)
        if pending:
            messages += _parse_lines([b"".join(pending)], number, path, True)
    finally:
        if enabled:  # last: a collection is due at the next allocation of a tracked object
            gc.enable()
    return messages


def count_messages(path: Path, start: int, end: int | None = None) -> tuple[int, int]:
    """``(messages, position)``: how many lines from byte ``start`` up to ``end`` (default: the end of
    the file) hold a message, and the offset just past the last line counted.  A last line without its
    newline counts when it is a whole message (as the loader reads it); otherwise it may still be being
    written, and is left for the next count."""
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            data = handle.read() if end is None else handle.read(max(0, end - start))
    except FileNotFoundError:
        return 0, start
    if start == 0 and data.startswith(BOM):  # counted as the loader reads it (see BOM)
        data, start = data[len(BOM) :], len(BOM)
    complete = data.rfind(b"\n") + 1
    count = len(parse_jsonl(data[:complete], path, warn=False))
    tail = data[complete:]
    if tail.strip() and is_message(_parse_line(tail)):
        return count + 1, start + len(data)
    return count, start + complete


# -- appending -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Appended:
    """Where an append put its lines: bytes ``[start, end)`` of the file with identity ``file_id``."""

    file_id: tuple[int, int]
    start: int
    end: int


def file_id(stat: os.stat_result) -> tuple[int, int]:
    return (stat.st_dev, stat.st_ino)


def append_lines(path: Path, data: Bytes) -> Appended:
    """Append complete JSONL lines with one ``write`` and return where they went.

    A last line left without its newline (a writer killed mid-line) first gets one, so the new lines
    never merge into it.  The file's lock (``flock``) serialises appenders; the file is reopened when a
    rewrite replaced it between ``open`` and taking the lock.  If the write fails, the file is cut back
    to its old length, so a failed append leaves nothing behind.  No ``fsync``: once ``write`` returns,
    a process crash can no longer lose the lines (see the durability policy in ``session``).
    """
    while True:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            stat = os.fstat(fd)
            try:
                current = os.stat(path)
            except FileNotFoundError:
                continue
            if file_id(current) != file_id(stat):
                continue  # replaced after we opened it: write to the new file
            size = stat.st_size
            payload = data
            if size and os.pread(fd, 1, size - 1) != b"\n":
                payload = b"\n" + data
            try:
                _write_all(fd, payload)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
                raise
            end = size + len(payload)
            return Appended(file_id(stat), end - len(data), end)
        finally:
            os.close(fd)


def _write_all(fd: int, data: Bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# -- replacing -----------------------------------------------------------------------------------------


def temp_path(path: Path) -> Path:
    return path.with_name(f"{path.name}{TEMP_MARKER}{os.getpid()}-{secrets.token_hex(4)}")


def atomic_write_bytes(path: Path, data: Bytes) -> os.stat_result:
    """Replace ``path`` with ``data`` so that a reader, a crash or a power loss leaves either the old or
    the new file, never a torn one: write a sibling temporary file, ``fdatasync`` it, then
    ``os.replace``.  The sync is skipped where the file system itself writes the new file's data before
    the rename that replaces an existing file (``durability.rename_orders_data``).  On failure the
    temporary file is removed and the error propagates; the old file is untouched.  Returns the new
    file's status (size, inode)."""
    temp = temp_path(path)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            _write_all(fd, data)
            stat = os.fstat(fd)
            if not (device_orders_renames(stat.st_dev) and os.path.lexists(path)):
                getattr(os, "fdatasync", os.fsync)(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return stat
