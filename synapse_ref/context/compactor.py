"""Compaction: summarise the older history with the model and keep a tail of recent messages.

Offloaded tool results are restored (in memory, from inside the offload directory only) so the summary
sees them; afterwards offload files that nothing in the kept tail references are deleted.

Restoring reads only what the agent itself could have written: a regular file inside ``offloaded/``,
reached without following any symbolic link (each path component is opened relative to the one before
with ``O_NOFOLLOW``, so swapping a component for a link after the scope check gains nothing), on the
offload directory's device, with a single link (a hard link can expose a file from anywhere), of at
most ``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` bytes (read when used; default 1 MiB); it is decoded as
UTF-8 with invalid bytes replaced, as the original reads it.
Opening never blocks (``O_NONBLOCK``), so a FIFO cannot hang compaction.  A reference that fails any of
these keeps its ``Tool result is at: <path>`` text and a warning is logged; only a missing file becomes
the ``[Content unavailable: <path>]`` placeholder of the original.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import os
import stat
from collections.abc import Awaitable, Callable, Iterable, Sequence
from importlib import resources

from synapse_ref.context.context_manager import OFFLOAD_REFERENCE_PREFIX
from synapse_ref.context.offload_storage import OffloadStore
from synapse_ref.context.records import CompactResult, Message
from synapse_ref.context.settings import parse_env_positive_int
from synapse_ref.context.token_counter import MessageTokenCache, TokenCounter, default_token_counter
from synapse_ref.js_text import array_join_text, trim
from synapse_ref.llm.ports import LLMClient

COMPRESSED_HISTORY_PREFIX = "[Compressed History]\n\n"

logger = logging.getLogger("synapse.context.compactor")

Sleep = Callable[[float], Awaitable[None]]

RESTORE_MAX_BYTES_ENV = "SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES"
DEFAULT_RESTORE_MAX_BYTES = 1024 * 1024

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FILE = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_OPEN_DIR = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_DIRECTORY", 0)


def restore_max_bytes() -> int:
    """The largest offload file restored, from ``SYNAPSE_OFFLOAD_RESTORE_MAX_BYTES`` as it is now."""
    return parse_env_positive_int(os.environ.get(RESTORE_MAX_BYTES_ENV), DEFAULT_RESTORE_MAX_BYTES)


class UnrestorableOffloadError(Exception):
    """The referenced file exists but is not one restoring may read; the message says why."""


SummaryClient = LLMClient
"""The compactor only needs ``generate``; ``with_model`` is used when the client has it."""


class EmptySummaryError(RuntimeError):
    """The model answered without any text."""


def load_summary_prompt(target_tokens: int) -> str:
    text = resources.files("synapse_ref.context").joinpath("prompts/compact_summary.md").read_text("utf-8")
    return text.replace("${TARGET_TOKENS}", str(target_tokens))


def extract_offload_filepath(text: str) -> str | None:
    """The path of a ``Tool result is at: <path>`` reference, or None when ``text`` is not one."""
    stripped = trim(text)
    if not stripped.startswith(OFFLOAD_REFERENCE_PREFIX):
        return None
    path = trim(stripped[len(OFFLOAD_REFERENCE_PREFIX) :])
    return path or None


def _first_text(message: Message) -> str | None:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                return str(part["text"])
    return None


def _texts(message: Message) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    parts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
    return [array_join_text(p.get("text")) for p in parts]  # as extractText maps part.text


def _reply_text(message: Message) -> str:
    """The summary in a reply, read as the original reads it: its stream layer merges adjacent text
    parts into one text, and the texts that other parts (thinking) keep apart are joined with a newline."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    texts: list[str] = []
    adjacent = False
    for part in content if isinstance(content, list) else ():
        is_text = isinstance(part, dict) and part.get("type") == "text"
        if is_text:
            piece = array_join_text(part.get("text"))
            if adjacent:
                texts[-1] += piece
            else:
                texts.append(piece)
        adjacent = is_text
    return "\n".join(texts)


class ContextCompactor:
    """Summarises all but the last ``preserve_count`` messages into one ``[Compressed History]`` message."""

    def __init__(
        self,
        storage: OffloadStore,
        llm: SummaryClient,
        *,
        token_counter: TokenCounter | None,
        preserve_count: int,
        target_tokens: int,
        retry_count: int,
        model: str | None,
        sleep: Sleep | None,
    ) -> None:
        self.storage = storage
        self.llm = llm
        self.preserve_count = max(0, preserve_count)
        self.target_tokens = target_tokens
        self.retry_count = retry_count
        self.model = model
        self._sleep: Sleep = sleep if sleep is not None else asyncio.sleep
        self._tokens = MessageTokenCache(
            token_counter if token_counter is not None else default_token_counter()
        )

    # -- compaction --------------------------------------------------------------------------------------
    async def compact(
        self, messages: list[Message], *, persist: Callable[[list[Message]], None] | None = None
    ) -> CompactResult:
        """Summarise all but the preserved tail.  ``persist`` saves the compacted history before any
        offload file is deleted, so a failed save leaves the old history and every file it references."""
        previous = self._tokens.count_messages(messages)
        split = self.split_index(messages)
        if split == 0:
            return CompactResult(list(messages), previous, previous, 0, len(messages), [], True)
        to_compress, to_preserve = messages[:split], messages[split:]
        try:
            restored = self.restore_offloaded_content(to_compress)
            summary = await self.generate_summary(restored)
            compacted = [self.summary_message(summary), *to_preserve]
            if persist is not None:
                persist(compacted)
            deleted = self.cleanup_offloaded_files(self.collect_referenced_offload_files(to_preserve))
        except Exception as exc:
            logger.error("Context compaction failed, keeping original history: %s", exc)
            return CompactResult(list(messages), previous, previous, 0, len(to_preserve), [], False)
        current = self._tokens.count_messages(compacted)
        return CompactResult(
            compacted, previous, current, previous - current, len(to_preserve), deleted, True
        )

    def split_index(self, messages: Sequence[Message]) -> int:
        """Where the kept tail starts: ``len - preserve_count``, moved earlier so that an assistant tool
        call and its tool results are never separated (an orphan result in the tail would later be
        dropped by the history sanitizer, and a dangling call would be replayed to the summary model)."""
        split = max(0, len(messages) - self.preserve_count)
        while split > 0:
            tail_starts_with_result = split < len(messages) and messages[split].get("role") == "tool"
            before = messages[split - 1]
            compressed_ends_with_call = before.get("role") == "assistant" and bool(before.get("toolCalls"))
            if not (tail_starts_with_result or compressed_ends_with_call):
                break
            split -= 1
        return split

    @staticmethod
    def summary_message(summary: str) -> Message:
        return {"role": "user", "content": [{"type": "text", "text": COMPRESSED_HISTORY_PREFIX + summary}]}

    # -- summary -----------------------------------------------------------------------------------------
    def summary_client(self) -> SummaryClient:
        """The client, switched to the compaction model only when one is configured and differs."""
        model = trim(self.model or "")
        with_model = getattr(self.llm, "with_model", None)
        if model and model != self.llm.model_name and callable(with_model):
            client: SummaryClient = with_model(model)
            return client
        return self.llm

    async def generate_summary(self, messages: list[Message]) -> str:
        """``retry_count`` attempts in total, waiting ``0.1 * attempt`` seconds after a failed one."""
        max_tokens = max(math.ceil(self.target_tokens * 1.2), 1)
        system_prompt = load_summary_prompt(self.target_tokens)
        client = self.summary_client()
        attempt = 1
        while True:
            try:
                reply = await client.generate(system_prompt, messages, [], max_tokens=max_tokens)
                text = _reply_text(reply.message)
                if not trim(text):  # JavaScript's white space: a lone U+FEFF is blank, U+001C is not
                    raise EmptySummaryError("API returned an empty response")
                return text
            except Exception as exc:
                logger.warning("Compact summary attempt %d failed: %s", attempt, exc)
                if attempt >= self.retry_count:
                    raise
            await self._sleep(0.1 * attempt)
            attempt += 1

    # -- offload references ------------------------------------------------------------------------------
    def normalize_offloaded_filepath(self, filepath: str) -> str | None:
        """The real path of ``filepath`` when it lies inside the offload directory, else None.

        Symlinks are resolved first, so a link inside the directory that points elsewhere is refused;
        nothing is opened or read here.  A path the OS cannot take (a NUL byte) is refused too.
        """
        if "\0" in filepath:
            logger.warning("Skipping offload restore for invalid path (NUL byte): %r", filepath)
            return None
        try:
            base = os.path.realpath(self.storage.offloaded_dir)
            resolved = os.path.realpath(filepath)
        except (OSError, ValueError) as exc:
            logger.warning("Skipping offload restore for invalid path: %r (%s)", filepath, exc)
            return None
        if os.path.commonpath([base, resolved]) != base or resolved == base:
            logger.warning("Skipping offload restore for out-of-scope path: %s", filepath)
            return None
        return resolved

    def restore_offloaded_content(self, messages: list[Message]) -> list[Message]:
        """A copy of ``messages`` where each ``tool`` message that is an offload reference carries the
        file's content again; other roles are never touched, a missing file becomes a placeholder, and
        a file restoring may not read keeps the reference (see the module docstring)."""
        restored: list[Message] = []
        limit = restore_max_bytes()
        for message in messages:
            text = _first_text(message) if message.get("role") == "tool" else None
            filepath = extract_offload_filepath(text) if text is not None else None
            normalized = self.normalize_offloaded_filepath(filepath) if filepath is not None else None
            if filepath is None or normalized is None:
                restored.append(message)
                continue
            try:
                body = self.read_offloaded_file(normalized, limit)
            except FileNotFoundError:
                body = f"[Content unavailable: {filepath}]"
            except UnrestorableOffloadError as exc:
                logger.warning("Offload restore skipped, keeping the reference %r: %s", filepath, exc)
                restored.append(message)
                continue
            restored.append({**message, "content": [{"type": "text", "text": body}]})
        return restored

    def read_offloaded_file(self, resolved: str, limit: int) -> str:
        """The UTF-8 text of ``resolved`` (a real path inside the offload directory), opened without
        following links or blocking; FileNotFoundError when it is gone, UnrestorableOffloadError when it
        is anything but a small regular file of its own on the directory's device.

        The directories down to the file are held open (each opened relative to the one before, never
        through a link); the file opened must then be the very entry of the held directory, so a
        component swapped for a link while opening reads nothing from outside."""
        base = os.path.realpath(self.storage.offloaded_dir)
        parts = os.path.relpath(resolved, base).split(os.sep)
        fds: list[int] = []
        try:
            fds.append(_open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)))
            base_device = os.fstat(fds[0]).st_dev
            for part in parts[:-1]:
                fds.append(_open(part, _OPEN_DIR, dir_fd=fds[-1]))
            fds.append(_open(resolved, _OPEN_FILE))
            opened = os.fstat(fds[-1])
            try:
                entry = os.stat(parts[-1], dir_fd=fds[-2], follow_symlinks=False)
            except FileNotFoundError:
                entry = None
            if entry is None or (entry.st_dev, entry.st_ino) != (opened.st_dev, opened.st_ino):
                raise UnrestorableOffloadError("replaced while being opened")
            return _read_checked(fds[-1], opened, base_device, limit)
        finally:
            for fd in reversed(fds):
                with contextlib.suppress(OSError):
                    os.close(fd)

    def collect_referenced_offload_files(self, messages: Iterable[Message]) -> set[str]:
        """Real paths of in-scope offload files referenced by the ``tool`` messages given."""
        referenced: set[str] = set()
        for message in messages:
            if message.get("role") != "tool":
                continue
            for text in _texts(message):
                filepath = extract_offload_filepath(text)
                normalized = self.normalize_offloaded_filepath(filepath) if filepath is not None else None
                if normalized is not None:
                    referenced.add(normalized)
        return referenced

    def cleanup_offloaded_files(self, retained: Iterable[str] = ()) -> list[str]:
        """Delete offload files not in ``retained``; a file that cannot be deleted is logged and kept,
        and the others are still deleted.  Returns the deleted paths as listed by the storage."""
        keep: set[str] = set()
        for path in retained:
            with contextlib.suppress(OSError, ValueError):
                keep.add(os.path.realpath(path))
        deleted: list[str] = []
        for file in self.storage.list_files():
            if os.path.realpath(file) in keep:
                continue
            try:
                self.storage.remove(file)
            except Exception as exc:
                logger.warning("Failed to delete offloaded file during compact cleanup: %s (%s)", file, exc)
                continue
            deleted.append(file)
        return deleted


def _open(path: str, flags: int, *, dir_fd: int | None = None) -> int:
    """``os.open`` with close-on-exec; a link where a file or directory was expected, or a component
    that is not a directory, is a reason to refuse the file, not a missing file."""
    try:
        return os.open(path, flags | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnrestorableOffloadError("a symbolic link") from exc
        if exc.errno == errno.ENOTDIR:
            raise UnrestorableOffloadError("a path component is not a directory") from exc
        raise UnrestorableOffloadError(f"cannot be opened: {exc.strerror or exc}") from exc


def _read_checked(fd: int, info: os.stat_result, device: int, limit: int) -> str:
    if not stat.S_ISREG(info.st_mode):
        raise UnrestorableOffloadError("not a regular file")
    if info.st_dev != device:
        raise UnrestorableOffloadError("on another device than the offload directory")
    if info.st_nlink != 1:
        raise UnrestorableOffloadError(f"has {info.st_nlink} hard links")
    if info.st_size > limit:
        raise UnrestorableOffloadError(f"{info.st_size} bytes, over the {limit}-byte restore limit")
    chunks: list[bytes] = []
    size = 0
    while size <= limit:  # the file may grow after fstat; never read more than the limit allows
        try:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
        except OSError as exc:
            raise UnrestorableOffloadError(f"cannot be read: {exc.strerror or exc}") from exc
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise UnrestorableOffloadError(f"grew over the {limit}-byte restore limit while being read")
    # Like the original's readFileSync(path, "utf-8"): invalid bytes become U+FFFD.
    return b"".join(chunks).decode("utf-8", errors="replace")
