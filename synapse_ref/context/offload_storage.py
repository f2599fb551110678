"""Files holding offloaded tool results: ``<session_dir>/offloaded/<uuid>.txt|.json``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Protocol

import orjson


class OffloadStorageError(OSError):
    """Saving offloaded content failed; the message names the cause."""


class OffloadStore(Protocol):
    """What the context manager and compactor need from a storage (any layout with these four)."""

    @property
    def offloaded_dir(self) -> Path: ...

    def save(self, content: str, ext: str | None = None) -> str: ...

    def list_files(self) -> list[str]: ...

    def remove(self, path: str) -> None: ...


class OffloadStorage:
    """Writes, lists and removes offload files of one session directory."""

    def __init__(self, session_dir: str | os.PathLike[str]) -> None:
        self._session_dir = Path(session_dir)
        self._offloaded_dir = self._session_dir / "offloaded"
        self._prefix = os.path.join(self._offloaded_dir, "")  # a save only appends the file name

    @property
    def offloaded_dir(self) -> Path:
        return self._offloaded_dir

    def save(self, content: str, ext: str | None = None) -> str:
        """Write ``content`` to a new file and return its full path.

        The extension is ``json`` when the content parses as JSON (so it can be viewed as such), else
        ``txt``.  The name is a fresh UUID opened exclusively, so no other file is ever overwritten, and
        the path is returned only once the content is completely written: a reference to the file
        exists only after that, so a crash can leave at most an unreferenced partial file, which the
        cleanup of unreferenced files removes.  No fsync per file (an offload writes thousands of them
        per step; the original does not either): before the session writes a history that points at
        them, it makes them durable with one sync (see the durability policy in ``session``).
        A failed write removes its partial file.  Files are readable by their owner only, as tool
        output may hold anything the tools saw.
        """
        del ext  # part of the storage port; the extension always follows the content, as documented
        target = f"{self._prefix}{_uuid4()}.{_detect_extension(content)}"
        data = content.encode("utf-8")  # before any file exists: unencodable text leaves nothing behind
        try:
            try:
                fd = os.open(target, _CREATE, 0o600)
            except FileNotFoundError:
                self._offloaded_dir.mkdir(parents=True, exist_ok=True)
                fd = os.open(target, _CREATE, 0o600)
            try:
                written = os.write(fd, data)
                while written < len(data):  # a short write: rare on a regular file
                    written += os.write(fd, memoryview(data)[written:])
            except BaseException:
                os.close(fd)
                os.unlink(target)
                raise
            os.close(fd)
        except OSError as exc:
            raise OffloadStorageError(f"Failed to save offloaded content: {exc}") from exc
        return target

    def list_files(self) -> list[str]:
        """Plain files in ``offloaded/`` (no directories, no symlinks), sorted."""
        try:
            entries = list(os.scandir(self.offloaded_dir))
        except FileNotFoundError:
            return []
        return sorted(
            os.path.join(self.offloaded_dir, e.name) for e in entries if e.is_file(follow_symlinks=False)
        )

    def remove(self, path: str) -> None:
        os.unlink(path)


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _uuid4() -> str:
    """``str(uuid.uuid4())`` without building a ``UUID`` object (a third of a save's own time)."""
    digits = os.urandom(16).hex()
    return f"{digits[:8]}-{digits[8:12]}-4{digits[13:16]}-{_VARIANT[digits[16]]}{digits[17:20]}-{digits[20:]}"


_VARIANT = {digit: "89ab"[int(digit, 16) & 3] for digit in "0123456789abcdef"}
"""RFC 4122 variant: the two top bits of the 17th digit are ``10``."""

_JSON_START = frozenset('{["-0123456789tfn')
"""What a JSON text starts with (after JSON whitespace)."""
_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _refuse_constant(name: str) -> float:
    """``NaN``, ``Infinity`` and ``-Infinity`` are no JSON: ``JSON.parse`` refuses them."""
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def _detect_extension(content: str) -> str:
    """``json`` when the content is a JSON text, as the original's ``JSON.parse`` decides: ``json.loads``
    without the ``NaN`` and ``Infinity`` it would take.  orjson decides the common cases quickly; only
    what it refuses (NaN, integers beyond 64 bits, lone surrogates, and all plain text) is asked of
    ``json``, and in the steps ``json.loads`` takes.  A text that does not start like JSON (most tool
    output) is told apart before any parser runs, and one that only starts with a JSON value (numbered
    lines) without building an exception."""
    start = _WHITESPACE.match(content).end()  # type: ignore[union-attr]  # it matches "" at least
    if content[start : start + 1] not in _JSON_START:
        return "txt"
    try:
        orjson.loads(content)
    except orjson.JSONDecodeError:
        try:
            end = _DECODER.raw_decode(content, start)[1]
        except (ValueError, RecursionError):  # RecursionError: nested too deeply for json
            return "txt"
        if _WHITESPACE.match(content, end).end() != len(content):  # type: ignore[union-attr]
            return "txt"
    return "json"
