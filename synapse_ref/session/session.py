"""A persisted conversation: JSONL history, its entry in ``sessions.json`` and its offload directory.

Durability policy
    ``fsync`` only where a power loss would otherwise destroy what the user cannot get back, once per
    write call (never per message or per file).

    A process crash (killed, out of memory, an uncaught error) loses nothing acknowledged: every write
    is in the operating system's cache before its call returns.  An append is one ``write`` of
    complete lines; a rewrite, a clear and every update of ``sessions.json`` write a temporary file and
    rename it over the old one, so the file is its old or its new version, never torn.  A line left
    without its newline by a killed writer is closed before the next append, so it never swallows an
    acknowledged message; the loader skips it with a warning.

    A power loss (or an operating-system crash) can cost:

    * the appends of the last seconds, which the kernel had not written back yet: appends are not
      synced (one flush of the disk per message would cost milliseconds each; the original does not
      sync either).  What was written earlier stays readable; a cut last line is skipped.
    * never a whole history or index: the temporary file of a rewrite, a clear or an index update is
      ``fdatasync``-ed before the rename (one sync per call), since a rename that reaches the disk
      before the data may leave an empty file in place of both versions.  On ext4 mounted with its
      defaults the kernel itself writes a file renamed over another before committing the rename, so
      there the sync is skipped (``durability.rename_orders_data``).  The rename itself is not
      synced, so a power loss may bring back the previous version; that is the longer history of a
      compaction or an offload, so nothing is lost.
    * never an offloaded tool result that a history points at: offload files are written without a
      sync each (an offload writes thousands), and before a rewrite writes a history that may point at
      them, one ``sync`` makes them durable (only when the ``offloaded`` directory changed since this
      object's last sync).  So the history never reaches the disk before the files it points at.

Message counts
    An index entry's ``messageCount`` counts the messages of the history file up to byte
    ``historySize`` of the file with inode ``historyInode`` (fields of this implementation; other
    tools ignore them).  Readers (``list``, ``find``) add the messages of the lines after that offset,
    so they show the file's count even after a crash between an append and its index update; ``find``
    recounts a file that was replaced, or whose entry another tool wrote.  An append therefore rewrites
    ``sessions.json`` at once only when it sets the title or when this object's previous append-driven
    update is at least ``INDEX_UPDATE_INTERVAL`` seconds old; otherwise the entry catches up with the
    session's next write.  Every update is a read-modify-write of the entry under the index lock, so
    two ``Session`` objects or processes of one session never drop each other's counts or usage.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import logging
import os
import secrets
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synapse_ref.js_text import trim
from synapse_ref.session.index import Entry, SessionIndex, iso_timestamp
from synapse_ref.session.paths import env_int
from synapse_ref.session.persistence import (
    Appended,
    append_lines,
    atomic_write_bytes,
    count_messages,
    file_id,
    is_message,
    read_jsonl,
    to_jsonl,
)
from synapse_ref.session.pricing import load_pricing
from synapse_ref.session.usage import accumulate_usage, create_empty_usage
from synapse_ref.session.usage import reset_usage as _reset_usage

logger = logging.getLogger("synapse.session")

INDEX_UPDATE_INTERVAL = 0.1
"""Seconds between two index updates driven by appends alone (see the module docstring)."""
OFFLOADED_DIR = "offloaded"
"""Where the context layer's storage keeps a session's offloaded tool results, in its offload dir."""
CLOCK_SLACK_NS = 2_000_000_000
"""A directory's change time may lag the clock (coarse file system timestamps): changes up to this
long before a sync are synced again next time."""
TITLE_MAX_LENGTH = 50
DEFAULT_MAX_SESSIONS = 100
DEFAULT_MODEL = "unknown-model"
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

Message = dict[str, Any]
Messages = builtins.list[Message]
Entries = builtins.list[Entry]
PricingTable = Mapping[str, Mapping[str, float]]


class SessionHistoryError(OSError):
    """Writing the history failed; the previous history file is unchanged."""


class SessionDeleteError(OSError):
    """A file of a session being deleted could not be removed; its index entry is back in place."""


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = _BASE36[rest] + digits
        if number == 0:
            return digits


def new_session_id() -> str:
    """``session-<base36 milliseconds>-<6 random base36 chars>``, as the original names them."""
    suffix = "".join(secrets.choice(_BASE36) for _ in range(6))
    return f"session-{_base36(int(time.time() * 1000))}-{suffix}"


def title_from(message: Mapping[str, Any]) -> str | None:
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = " ".join(  # a null text joins as "", as JavaScript's join() writes null
            "" if part.get("text") is None else str(part["text"])
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    else:
        return None
    text = trim(text)
    if not text:
        return None
    return text if len(text) <= TITLE_MAX_LENGTH else text[: TITLE_MAX_LENGTH - 3] + "..."


COMPRESSED_HISTORY_TITLE = "[Compressed History]"
"""How the title of a compaction summary message starts (see ``synapse_ref.context.compactor``)."""


@dataclass(frozen=True)
class _Written:
    """Lines this object appended whose count the index entry may not hold yet."""

    where: Appended
    messages: int


Anchor = tuple[int, int]
"""``(historySize, historyInode)`` of an entry: its ``messageCount`` counts the messages in the first
``historySize`` bytes of the history file with inode ``historyInode`` (any file when the size is 0)."""

NO_HISTORY: Anchor = (0, 0)


def _natural(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _anchor(entry: Mapping[str, Any]) -> Anchor | None:
    size, inode = entry.get("historySize"), entry.get("historyInode")
    if isinstance(size, int) and isinstance(inode, int) and _natural(size) and _natural(inode):
        return (size, inode)
    return None


def _set_anchor(entry: Entry, anchor: Anchor | None) -> None:
    if anchor is None:
        entry.pop("historySize", None)
        entry.pop("historyInode", None)
    else:
        entry["historySize"], entry["historyInode"] = anchor


def reconcile_count(
    path: Path, count: int, anchor: Anchor | None, written: Sequence[_Written] = ()
) -> tuple[int, Anchor | None]:
    """The messages of the history file and the anchor for that count: ``count`` messages up to the
    ``anchor`` (None: not known, count the whole file), plus those of the complete lines after it.
    Lines this object wrote there are counted without reading them.  A missing file keeps ``count``:
    there is nothing to check it against."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return count, anchor
    if anchor is None or anchor[0] > stat.st_size or (anchor[0] and anchor[1] != stat.st_ino):
        count, size = count_messages(path, 0)  # replaced (a rewrite cut off by a crash) or unknown
        return count, (size, stat.st_ino)
    position = anchor[0]
    for item in sorted(written, key=lambda w: w.where.start):
        where = item.where
        if where.file_id != file_id(stat) or where.end > stat.st_size or where.end <= position:
            continue  # in a file that has been replaced since, or counted already
        if where.start >= position:
            if where.start > position:  # lines another writer appended in between
                count += count_messages(path, position, where.start)[0]
            count += item.messages
        else:  # another reader counted the first of these lines while they were being written
            count += count_messages(path, position, where.end)[0]
        position = where.end
    if position < stat.st_size:
        more, position = count_messages(path, position)
        count += more
    return count, (position, stat.st_ino)


def _first_user_title(messages: Messages) -> str | None:
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "user":
            return title_from(message)
    return None


class Session:
    """Persistence of one conversation.

    Build one with :meth:`create`, :meth:`find` or :meth:`continue_`; every change to the history, the
    title or the usage is reflected in the sessions index (see the module docstring for when).
    """

    def __init__(
        self,
        session_id: str,
        sessions_dir: Path,
        *,
        created_at: str,
        usage: Mapping[str, Any],
        title: str | None = None,
        message_count: int = 0,
        anchor: Anchor | None = None,
        cwd: str | None = None,
        pricing: PricingTable | None = None,
        pricing_path: Path | None = None,
    ) -> None:
        self._id = session_id
        self._sessions_dir = Path(sessions_dir)
        self._created_at = created_at
        self._usage: dict[str, Any] = copy.deepcopy(dict(usage))
        self._title = title
        self._message_count = message_count
        self._anchor = anchor
        self._cwd = cwd
        self._pricing = pricing
        self._pricing_path = pricing_path
        self._index = SessionIndex(self._sessions_dir)
        self._history_path = self._sessions_dir / f"{session_id}.jsonl"
        self._unsynced: builtins.list[_Written] = []
        self._last_append_update = -INDEX_UPDATE_INTERVAL
        self._offloads_synced_before = 0
        """Offloaded files were made durable when the directory changed before this time (ns)."""

    # -- construction ------------------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        sessions_dir: Path,
        *,
        session_id: str | None = None,
        model: str | None = None,
        pricing: PricingTable | None = None,
        pricing_path: Path | None = None,
    ) -> Session:
        session = cls(
            session_id or new_session_id(),
            Path(sessions_dir),
            created_at=iso_timestamp(time.time()),
            usage=create_empty_usage(model or DEFAULT_MODEL),
            anchor=NO_HISTORY,
            cwd=os.getcwd(),
            pricing=pricing,
            pricing_path=pricing_path,
        )
        session._register()
        return session

    @classmethod
    def find(
        cls,
        session_id: str,
        sessions_dir: Path,
        *,
        model: str | None = None,
        pricing: PricingTable | None = None,
        pricing_path: Path | None = None,
    ) -> Session | None:
        """The session recorded in the index, with its usage and title as persisted there and its
        message count checked against the history file.

        A missing id or an unreadable index gives ``None``: resuming must never crash the caller.
        """
        entry = SessionIndex(Path(sessions_dir)).find(session_id)
        if entry is None:
            return None
        stored = entry.get("usage")
        usage = stored if stored is not None else create_empty_usage(model or DEFAULT_MODEL)
        session = cls(
            entry["id"],
            Path(sessions_dir),
            created_at=entry["createdAt"],
            usage=usage,
            title=entry.get("title"),
            cwd=entry.get("cwd"),
            pricing=pricing,
            pricing_path=pricing_path,
        )
        session._message_count = int(entry["messageCount"])
        if _is_file_name(session_id):
            try:
                session._message_count, session._anchor = reconcile_count(
                    session.history_path, session._message_count, _anchor(entry)
                )
            except OSError as exc:  # an unreadable history: the index's count is all there is
                logger.warning("Could not count the messages of %s: %s", session.history_path, exc)
        return session

    @classmethod
    def list(cls, sessions_dir: Path) -> Entries:
        """Index entries, newest first, with message counts checked against the history files; ``[]``
        when the index is missing or corrupt."""
        entries = SessionIndex(Path(sessions_dir)).entries()
        for entry in entries:
            anchor = _anchor(entry)
            if anchor is None or not _is_file_name(entry["id"]):
                continue  # written by another tool: its count is all there is (a full recount is find's)
            path = Path(sessions_dir) / f"{entry['id']}.jsonl"
            with contextlib.suppress(OSError):
                stat = os.stat(path)
                if (stat.st_size, stat.st_ino) != anchor:
                    entry["messageCount"] = reconcile_count(path, int(entry["messageCount"]), anchor)[0]
        return entries

    @classmethod
    def delete_by_id(cls, sessions_dir: Path, session_id: str) -> bool:
        """Delete a session: its entry in ``sessions.json``, then its directory ``<id>/`` (offloaded
        files included), then its history ``<id>.jsonl``.  True when there was anything of it to delete,
        False when the sessions directory holds nothing of that id (deleting twice is harmless).

        Only names inside the sessions directory are removed: an id that is not a plain file name
        (``..``, ``a/b``, empty) loses its index entry, which only a hand-edited index can hold, and no
        file.  Everything runs under the index lock, so no other writer's index update is lost and a
        rewrite or clear of the same session does not interleave with it.

        Why the entry goes first: readers (``list``, ``find``, ``continue``) reach a session only through
        its entry, and removing it is one atomic replace of the index.  A process killed at any point
        therefore leaves either the whole session, listed and loadable, or no entry at all; what a kill
        after that leaves on disk is unlisted and goes with the next deletion of the same id.  Removing the
        files first would leave, after a kill, an entry whose history is gone.

        A file that cannot be removed raises :class:`SessionDeleteError` naming it, and the entry is put
        back so that the session stays listed and the deletion can be retried; nothing is left unlisted
        silently.  The directory goes before the history so that such a failure keeps the conversation.
        """
        sessions_dir = Path(sessions_dir)
        if not sessions_dir.is_dir():
            return False
        index = SessionIndex(sessions_dir)
        with index.locked():
            try:
                taken = index.remove(session_id)
            except OSError as exc:
                raise SessionDeleteError(
                    f"Failed to delete session {session_id}: cannot update {index.path}: {_reason(exc)}"
                ) from exc
            try:
                removed = _remove_session_files(sessions_dir, session_id)
            except OSError as exc:
                message = (
                    f"Failed to delete session {session_id}: cannot remove {exc.filename}: {_reason(exc)}"
                )
                try:
                    if taken:
                        index.restore(taken)
                except OSError as again:
                    message += f" (and its index entry could not be put back: {_reason(again)})"
                raise SessionDeleteError(message) from exc
        deleted = bool(taken) or removed
        if deleted:  # an id with nothing of it is no deletion: the log says only what happened
            logger.info("Deleted session %s", session_id)
        return deleted

    @classmethod
    def continue_(cls, sessions_dir: Path, *, model: str | None = None) -> Session | None:
        """The most recent session, or ``None`` when there is none."""
        sessions = SessionIndex(Path(sessions_dir)).entries()
        if not sessions:
            return None
        return cls.find(str(sessions[0]["id"]), sessions_dir, model=model)

    # -- properties --------------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self._id

    @property
    def sessions_dir(self) -> Path:
        return self._sessions_dir

    @property
    def history_path(self) -> Path:
        return self._history_path

    @property
    def offload_dir(self) -> Path:
        return self._sessions_dir / self._id

    @property
    def title(self) -> str | None:
        return self._title

    @property
    def message_count(self) -> int:
        return self._message_count

    # -- history -----------------------------------------------------------------------------------------
    def append_message(self, message_or_list: Message | Messages) -> None:
        messages = list(message_or_list) if isinstance(message_or_list, builtins.list) else [message_or_list]
        if not messages:
            return
        where = append_lines(self.history_path, to_jsonl(messages))
        count = sum(map(is_message, messages))  # as the loader and rewrite_history count them
        self._unsynced.append(_Written(where, count))
        self._message_count += count
        title = _first_user_title(messages) if self._title is None else None
        now = time.monotonic()
        if title is None and now - self._last_append_update < INDEX_UPDATE_INTERVAL:
            return  # the entry catches up with a later write; readers count these lines meanwhile
        self._last_append_update = now

        def keep_first_title(entry: Entry) -> None:
            if title is not None and entry.get("title") is None:
                entry["title"] = title

        self._update_entry(keep_first_title)

    def load_history(self) -> Messages:
        """The history's messages; a line that is not a message object is skipped with a warning."""
        return read_jsonl(self.history_path)

    def rewrite_history(self, messages: Messages) -> None:
        """Replace the whole history atomically; on failure the old file stays byte-identical."""
        messages = list(messages)
        with self._index.locked():
            try:
                data = to_jsonl(messages)
                self._sync_offloaded_files()  # before the history that may point at them
                written = atomic_write_bytes(self.history_path, data)
            except Exception as exc:
                raise SessionHistoryError(f"Failed to rewrite session history: {exc}") from exc
            count = sum(map(is_message, messages))
            title = _first_user_title(messages)

            def replace(entry: Entry) -> None:
                entry["messageCount"] = count
                _set_anchor(entry, (written.st_size, written.st_ino))
                current = entry.get("title")
                # A compacted history starts with the summary; the conversation's topic has not changed.
                if current and title and title.startswith(COMPRESSED_HISTORY_TITLE):
                    return
                _set_title(entry, title)

            self._update_entry(replace, replaced=True)

    def _sync_offloaded_files(self) -> None:
        """Make the offloaded files a new history may point at durable before the history is (see the
        durability policy): one ``sync`` when files were added since the last one, none otherwise."""
        try:
            changed = os.stat(self.offload_dir / OFFLOADED_DIR).st_mtime_ns
        except OSError:
            return  # nothing offloaded
        if changed < self._offloads_synced_before:
            return
        started = time.time_ns() - CLOCK_SLACK_NS
        os.sync()
        self._offloads_synced_before = started

    def clear(self, *, reset_usage: bool = True) -> None:
        """Empty the history (the file is kept), drop offloaded files and the title, and by default the
        usage; the index is updated to match, title included."""
        with self._index.locked():
            written = atomic_write_bytes(self.history_path, b"")
            shutil.rmtree(self.offload_dir, ignore_errors=True)

            def empty(entry: Entry) -> None:
                entry["messageCount"] = 0
                _set_anchor(entry, (0, written.st_ino))
                _set_title(entry, None)
                if reset_usage:
                    entry["usage"] = _reset_usage(entry.get("usage") or self._usage)

            self._update_entry(empty, replaced=True)

    def delete(self) -> None:
        """Delete this session from disk and the index (see :meth:`delete_by_id`).  A later write through
        this object, or through another object of the same session, starts the session anew."""
        Session.delete_by_id(self._sessions_dir, self._id)

    # -- usage -------------------------------------------------------------------------------------------
    def get_usage(self) -> dict[str, Any]:
        return copy.deepcopy(self._usage)

    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        """Add one round to the usage persisted in the index (not to this object's copy of it, which
        another object of the same session may have made stale)."""
        pricing = self._pricing if self._pricing is not None else load_pricing(self._pricing_path)

        def add_round(entry: Entry) -> None:
            current = dict(entry.get("usage") or self._usage)
            if model:
                current["model"] = model
            entry["usage"] = accumulate_usage(current, usage, pricing)

        self._update_entry(add_round)

    # -- index -------------------------------------------------------------------------------------------
    def _entry(self, now: str) -> Entry:
        entry: Entry = {
            "id": self._id,
            "createdAt": self._created_at,
            "updatedAt": now,
            "messageCount": self._message_count,
        }
        if self._title is not None:
            entry["title"] = self._title
        if self._cwd is not None:
            entry["cwd"] = self._cwd
        entry["usage"] = copy.deepcopy(self._usage)
        _set_anchor(entry, self._anchor)
        return entry

    def _register(self) -> None:
        limit = env_int("SYNAPSE_MAX_SESSIONS", DEFAULT_MAX_SESSIONS)
        entry = self._entry(self._created_at)

        def register(sessions: Entries) -> Entries:
            sessions[:] = [entry, *(e for e in sessions if e.get("id") != self._id)]
            if limit <= 0:
                return []
            evicted = sessions[limit:]
            del sessions[limit:]
            return evicted

        for old in self._index.update(register):
            self._delete_files(old["id"])

    def _delete_files(self, session_id: str) -> None:
        """Files of an evicted session: a failure is logged, it must not fail the new session."""
        try:
            _remove_session_files(self._sessions_dir, session_id)
        except OSError as exc:
            logger.warning(
                "Could not delete evicted session %s: %s: %s", session_id, exc.filename, _reason(exc)
            )

    def _update_entry(self, change: Callable[[Entry], None], *, replaced: bool = False) -> None:
        """Under the index lock: bring the entry's count up to the file (unless ``change`` sets it for a
        history it ``replaced``), apply ``change``, save, and adopt the saved state."""

        def update(sessions: Entries) -> Entry:
            now = iso_timestamp(time.time())
            entry = next((e for e in sessions if e.get("id") == self._id), None)
            if entry is None:  # evicted or lost with a corrupt index: this object's state is all there is
                entry = self._entry(now)
                # Its anchor is where this object's unsynced lines begin; reconciling counts them once.
                entry["messageCount"] = self._message_count - sum(w.messages for w in self._unsynced)
                sessions.insert(0, entry)
            if not replaced:
                count, anchor = reconcile_count(
                    self.history_path, int(entry["messageCount"]), _anchor(entry), self._unsynced
                )
                entry["messageCount"] = count
                _set_anchor(entry, anchor)
            change(entry)
            entry["updatedAt"] = now
            return copy.deepcopy(entry)

        saved = self._index.update(update)
        self._unsynced = []
        self._message_count = int(saved["messageCount"])
        self._anchor = _anchor(saved)
        self._title = saved.get("title")
        if saved.get("usage") is not None:
            self._usage = saved["usage"]


def _set_title(entry: Entry, title: str | None) -> None:
    if title is None:
        entry.pop("title", None)
    else:
        entry["title"] = title


def _is_file_name(session_id: object) -> bool:
    if not isinstance(session_id, str) or session_id in ("", "..") or "\0" in session_id:
        return False
    return Path(session_id).name == session_id


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _remove_session_files(sessions_dir: Path, session_id: str) -> bool:
    """Remove ``<id>/`` and then ``<id>.jsonl``; True when either existed.  Nothing for an id that is not
    a plain file name (it must not reach outside the sessions directory), and a symbolic link is removed,
    never followed.  The first file that cannot be removed raises, with its path as ``filename``."""
    if not _is_file_name(session_id):
        return False
    directory = sessions_dir / session_id
    history = sessions_dir / f"{session_id}.jsonl"
    found = False
    if directory.is_dir() and not directory.is_symlink():
        _remove_tree(directory)
        found = True
    for path in (directory, history):
        try:
            os.unlink(path)
            found = True
        except FileNotFoundError:
            continue
        except OSError as exc:
            exc.filename = exc.filename or str(path)
            raise
    return found


def _remove_tree(directory: Path) -> None:
    """Removes ``directory`` bottom-up, never following a link; an error names the whole path of the
    entry that could not be removed (``shutil.rmtree``'s error names a different path from one Python
    version to the next: the entry, its bare name or its parent directory)."""

    def remove(path: str, function: Callable[[str], None]) -> None:
        try:
            function(path)
        except FileNotFoundError:
            pass  # removed meanwhile: nothing left to do
        except OSError as error:
            raise OSError(error.errno, error.strerror, path) from error

    for parent, dirs, files in os.walk(directory, topdown=False, onerror=_raise):
        for name in files:
            remove(os.path.join(parent, name), os.unlink)
        for name in dirs:
            path = os.path.join(parent, name)
            remove(path, os.unlink if os.path.islink(path) else os.rmdir)
    remove(str(directory), os.rmdir)


def _raise(error: OSError) -> None:
    raise error
