"""``sessions.json`` is read with a closed schema: an entry may hold the original's fields and this
implementation's own, nothing else (serde's ``deny_unknown_fields``, pydantic's ``extra="forbid"``),
where the original's zod schema accepts an entry with further fields and ignores them.  An index that
another tool or a newer version annotated (``"pinned": true``) reads as corrupt: every session
disappears from the list, and the next write sets the whole index aside.

Pattern: a rule stricter than the original's; every example entry holds known fields only.
"""

from __future__ import annotations

import functools
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session import index
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("session",)
PATTERN = "rule stricter than the original's"

KNOWN_FIELDS = frozenset(
    {"id", "createdAt", "updatedAt", "messageCount", "title", "cwd", "usage", "historySize", "historyInode"}
)
_reference_validate = index.validate_index


def closed_validate_index(data: object) -> dict[str, Any]:
    checked = _reference_validate(data)
    if any(set(entry) - KNOWN_FIELDS for entry in checked["sessions"]):
        raise index.IndexCorruptError("unknown fields in a session entry")
    return checked


def _closed(call: Any) -> Any:
    @functools.wraps(call)
    def run(*args: Any, **kwargs: Any) -> Any:
        with swapped(index, "validate_index", closed_validate_index):
            return _wrap(call(*args, **kwargs))

    return run


def _wrap(value: Any) -> Any:
    return ClosedSession(value) if type(value).__name__ == "Session" else value


class ClosedSession(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        return _closed(value) if callable(value) else value


class Mutant(ReferenceImplementation):
    name = "semantic-sg_session_index_unknown_fields"

    def create_session(self, *args: Any, **options: Any) -> Any:
        return _closed(super().create_session)(*args, **options)

    def find_session(self, *args: Any, **options: Any) -> Any:
        return _closed(super().find_session)(*args, **options)

    def continue_session(self, *args: Any, **options: Any) -> Any:
        return _closed(super().continue_session)(*args, **options)

    def list_sessions(self, *args: Any, **options: Any) -> Any:
        return _closed(super().list_sessions)(*args, **options)

    def delete_session(self, *args: Any, **options: Any) -> Any:
        return _closed(super().delete_session)(*args, **options)


implementation = Mutant
