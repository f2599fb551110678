"""JSONL history files and atomic file replacement."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

logger = logging.getLogger("synapse.session.persistence")


def to_jsonl(messages: Iterable[Any]) -> str:
    return "".join(json.dumps(message, ensure_ascii=False) + "\n" for message in messages)


def read_jsonl(path: Path) -> list[Any]:
    """Every line that parses (a missing file has none); a corrupt line is skipped with a warning so
    one bad write does not make the whole conversation unreadable."""
    try:
        content = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    messages: list[Any] = []
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            messages.append(json.loads(line))
        except json.JSONDecodeError as exc:
            logger.warning("Skipped corrupted JSONL line %d in %s: %s", number, path, exc)
    return messages


def append_jsonl(path: Path, messages: Iterable[Any]) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(to_jsonl(messages))
        handle.flush()
        os.fsync(handle.fileno())


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a reader sees either the old or the new file, never a
    torn one: write a sibling temporary file, flush and fsync it, then ``os.replace``.  On failure the
    temporary file is removed and the error propagates; the old file is untouched."""
    temp = path.with_name(f"{path.name}.tmp-{int(time.time() * 1000)}-{secrets.token_hex(3)}")
    try:
        with temp.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename durable; not every platform can open a directory, which is harmless.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
