"""The history is read line by line with a decoder that keeps a byte-order mark (Python's ``"utf-8"``,
Java's ``UTF_8``, Go's ``bufio.Scanner``), where the original reads the file as text and trims it
(``content.trim()``), which removes the mark: the first line of a history an editor saved with a BOM is
no JSON to the port, so its first message is skipped with a warning and left out of the count.

Pattern: a BOM; every example history is written without one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session import persistence
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "a byte-order mark"

_NO_MARK = b"\x00no byte-order mark is dropped\x00"


def _keeping_mark(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with swapped(persistence, "BOM", _NO_MARK):
            return function(*args, **kwargs)

    return call


class Session(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        return _keeping_mark(value) if callable(value) else value


class Mutant(SessionMutant):
    name = "semantic-si_session_history_bom_kept"
    session_class = Session

    def find_session(self, session_id: str, sessions_dir: Any, **options: Any) -> Any:
        return _keeping_mark(super().find_session)(session_id, sessions_dir, **options)

    def continue_session(self, sessions_dir: Any) -> Any:
        return _keeping_mark(super().continue_session)(sessions_dir)

    def list_sessions(self, sessions_dir: Any) -> Any:
        return _keeping_mark(ReferenceImplementation.list_sessions)(self, sessions_dir)


implementation = Mutant
