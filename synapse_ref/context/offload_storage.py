"""Files holding offloaded tool results: ``<session_dir>/offloaded/<uuid>.txt|.json``."""

from __future__ import annotations

import json
import os
import tempfile
import uuid
from pathlib import Path
from typing import Protocol


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
        ``txt``; the write is atomic so a crash never leaves a half-written reference target.
        """
        del ext  # part of the storage port; the extension always follows the content, as documented
        extension = _detect_extension(content)
        target = self.offloaded_dir / f"{uuid.uuid4()}.{extension}"
        try:
            self.offloaded_dir.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=self.offloaded_dir)
            try:
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                    handle.write(content)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temp, target)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise OffloadStorageError(f"Failed to save offloaded content: {exc}") from exc
        return str(target)

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


def _detect_extension(content: str) -> str:
    try:
        json.loads(content)
    except ValueError:
        return "txt"
    return "json"
