"""Files holding offloaded tool results: ``<session_dir>/offloaded/<uuid>.txt|.json``."""

from __future__ import annotations

import json
import os
import uuid
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
        self.session_dir = Path(session_dir)

    @property
    def offloaded_dir(self) -> Path:
        return self.session_dir / "offloaded"

    def save(self, content: str, ext: str | None = None) -> str:
        """Write ``content`` to a new file and return its full path.

        The extension is ``json`` when the content parses as JSON (so it can be viewed as such), else
        ``txt``.  The name is a fresh UUID opened exclusively, so no other file is ever overwritten, and
        the path is returned only once the content is completely written: a reference to the file
        exists only after that, so a crash can leave at most an unreferenced partial file, which the
        cleanup of unreferenced files removes.  No fsync per file (an offload writes thousands of them
        per step; the original does not either): the history that references them is what is synced.
        A failed write removes its partial file.  Files are readable by their owner only, as tool
        output may hold anything the tools saw.
        """
        del ext  # part of the storage port; the extension always follows the content, as documented
        target = os.path.join(self.offloaded_dir, f"{uuid.uuid4()}.{_detect_extension(content)}")
        data = content.encode("utf-8")  # before any file exists: unencodable text leaves nothing behind
        try:
            try:
                fd = os.open(target, _CREATE, 0o600)
            except FileNotFoundError:
                self.offloaded_dir.mkdir(parents=True, exist_ok=True)
                fd = os.open(target, _CREATE, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
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


def _detect_extension(content: str) -> str:
    """``json`` when ``json.loads`` accepts the content.  orjson decides the common cases quickly; only
    what it refuses (NaN, integers beyond 64 bits, lone surrogates, and all plain text) is asked of
    ``json``, which fails fast on text."""
    try:
        orjson.loads(content)
    except orjson.JSONDecodeError:
        try:
            json.loads(content)
        except ValueError:
            return "txt"
    return "json"
