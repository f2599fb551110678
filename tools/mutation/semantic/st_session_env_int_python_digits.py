"""The session's integer settings (``SYNAPSE_MAX_SESSIONS``, ``SYNAPSE_MAX_ROUNDS_KEPT``) are read with a
regular expression written after the original's ``parseInt(value, 10)``: ``re.match(r"\\s*([+-]?\\d+)")``.
Python's ``\\d`` takes the digits of every script and its ``\\s`` leaves out the byte-order mark, where
``parseInt`` reads ASCII digits only and skips JavaScript's white space (U+FEFF included): full-width
``３`` becomes a limit of 3 instead of the default, and ``{U+FEFF}2`` falls back to the default instead of
2.  The same pattern in the port's own test helper is how such a port passes its tests.

Pattern: a number read as Python reads it; every example setting is ASCII.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session import usage as usage_module
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "a number read as Python reads it (Unicode digits, U+FEFF)"

_LEADING_INT = re.compile(r"\s*([+-]?\d+)")


def python_env_int(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    found = _LEADING_INT.match((os.environ if env is None else env).get(name, ""))
    return int(found[1]) if found else default


@contextlib.contextmanager
def _python_settings() -> Iterator[None]:
    with swapped(session_module, "env_int", python_env_int), swapped(usage_module, "env_int", python_env_int):
        yield


def _reading(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        with _python_settings():
            return function(*args, **kwargs)

    return call


class Session(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        return _reading(value) if callable(value) else value


class Mutant(SessionMutant):
    name = "semantic-st_session_env_int_python_digits"
    session_class = Session

    def create_session(self, sessions_dir: Any, **options: Any) -> Any:
        return _reading(super().create_session)(sessions_dir, **options)

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return _reading(super().accumulate_usage)(usage, round_usage, pricing)


implementation = Mutant
