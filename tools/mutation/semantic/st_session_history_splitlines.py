"""The history is read as text and cut into lines with ``str.splitlines()``, the idiom a Python port
writes for the original's ``content.trim().split('\\n')``.  ``splitlines`` also ends a line at U+2028,
U+2029, U+0085, a form feed and the other separators, which JSON keeps raw inside a string (a message
pasted from a web page, a PDF or a terminal): such a message is cut into halves that are no JSON, and
``loadHistory()`` skips it with two warnings.

Pattern: ``str.splitlines()`` against ``split("\\n")``; every example message is plain text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synapse_ref.session import persistence
from synapse_ref.session import session as session_module
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "str.splitlines() against split('\\n')"


def read_splitlines(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    lines = text.removeprefix("\ufeff").splitlines()
    return persistence.parse_jsonl("\n".join(lines).encode("utf-8"), path)


def _reading(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with swapped(session_module, "read_jsonl", read_splitlines):
            return function(*args, **kwargs)

    return call


class Session(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        return _reading(value) if callable(value) else value


class Mutant(SessionMutant):
    name = "semantic-st_session_history_splitlines"
    session_class = Session


implementation = Mutant
