"""A persisted conversation: JSONL history, its entry in ``sessions.json`` and its offload directory."""

from __future__ import annotations

import builtins
import contextlib
import copy
import os
import secrets
import shutil
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from synapse_ref.session.index import Entry, SessionIndex, iso_timestamp
from synapse_ref.session.paths import env_int
from synapse_ref.session.persistence import append_jsonl, atomic_write_text, read_jsonl, to_jsonl
from synapse_ref.session.pricing import load_pricing
from synapse_ref.session.usage import accumulate_usage, create_empty_usage
from synapse_ref.session.usage import reset_usage as _reset_usage

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
        text = " ".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    else:
        return None
    text = text.strip()
    if not text:
        return None
    return text if len(text) <= TITLE_MAX_LENGTH else text[: TITLE_MAX_LENGTH - 3] + "..."


COMPRESSED_HISTORY_TITLE = "[Compressed History]"
"""How the title of a compaction summary message starts (see ``synapse_ref.context.compactor``)."""


def _first_user_title(messages: Messages) -> str | None:
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "user":
            return title_from(message)
    return None


class Session:
    """Persistence of one conversation.

    Build one with :meth:`create`, :meth:`find` or :meth:`continue_`; every change to the history, the
    title or the usage is reflected in the sessions index straight away.
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
        self._cwd = cwd
        self._pricing = pricing
        self._pricing_path = pricing_path
        self._index = SessionIndex(self._sessions_dir)

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
        """The session recorded in the index, with its usage, title and count as persisted there.

        A missing id or an unreadable index gives ``None``: resuming must never crash the caller.
        """
        entry = SessionIndex(Path(sessions_dir)).find(session_id)
        if entry is None:
            return None
        stored = entry.get("usage")
        usage = stored if stored is not None else create_empty_usage(model or DEFAULT_MODEL)
        return cls(
            entry["id"],
            Path(sessions_dir),
            created_at=entry["createdAt"],
            usage=usage,
            title=entry.get("title"),
            message_count=int(entry["messageCount"]),
            cwd=entry.get("cwd"),
            pricing=pricing,
            pricing_path=pricing_path,
        )

    @classmethod
    def list(cls, sessions_dir: Path) -> Entries:
        """Index entries, newest first; ``[]`` when the index is missing or corrupt."""
        return SessionIndex(Path(sessions_dir)).entries()

    @classmethod
    def continue_(cls, sessions_dir: Path, *, model: str | None = None) -> Session | None:
        """The most recent session, or ``None`` when there is none."""
        sessions = cls.list(sessions_dir)
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
        return self._sessions_dir / f"{self._id}.jsonl"

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
        append_jsonl(self.history_path, messages)
        self._message_count += len(messages)
        if self._title is None:
            self._title = _first_user_title(messages)
        self._save_entry()

    def load_history(self) -> Messages:
        return [m for m in read_jsonl(self.history_path) if m is not None]

    def rewrite_history(self, messages: Messages) -> None:
        """Replace the whole history atomically; on failure the old file stays byte-identical."""
        messages = list(messages)
        try:
            atomic_write_text(self.history_path, to_jsonl(messages))
        except Exception as exc:
            raise SessionHistoryError(f"Failed to rewrite session history: {exc}") from exc
        self._message_count = len(messages)
        title = _first_user_title(messages)
        # A compacted history starts with the summary; the conversation's topic has not changed.
        if not (self._title and title and title.startswith(COMPRESSED_HISTORY_TITLE)):
            self._title = title
        self._save_entry()

    def clear(self, *, reset_usage: bool = True) -> None:
        """Empty the history (the file is kept), drop offloaded files and the title, and by default the
        usage; the index is updated to match, title included."""
        atomic_write_text(self.history_path, "")
        shutil.rmtree(self.offload_dir, ignore_errors=True)
        self._message_count = 0
        self._title = None
        if reset_usage:
            self._usage = _reset_usage(self._usage)
        self._save_entry()

    # -- usage -------------------------------------------------------------------------------------------
    def get_usage(self) -> dict[str, Any]:
        return copy.deepcopy(self._usage)

    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        if model:
            self._usage["model"] = model
        pricing = self._pricing if self._pricing is not None else load_pricing(self._pricing_path)
        self._usage = accumulate_usage(self._usage, usage, pricing)
        self._save_entry()

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
        # An id from a hand-edited index must not reach outside the sessions directory.
        if session_id in ("", "..") or Path(session_id).name != session_id:
            return
        with contextlib.suppress(OSError):
            (self._sessions_dir / f"{session_id}.jsonl").unlink()
        shutil.rmtree(self._sessions_dir / session_id, ignore_errors=True)

    def _save_entry(self) -> None:
        entry = self._entry(iso_timestamp(time.time()))

        def save(sessions: Entries) -> None:
            for position, existing in enumerate(sessions):
                if existing.get("id") == self._id:
                    sessions[position] = entry
                    return
            sessions.insert(0, entry)

        self._index.update(save)
