"""The timestamps of ``sessions.json`` are written in local time with a ``Z`` appended
(``datetime.now().isoformat(timespec="milliseconds") + "Z"``, or ``LocalDateTime.now()``), where the
original's ``toISOString()`` always writes UTC: the format is right, the moment is off by the offset.

Pattern: time zones (local vs UTC); on a machine that runs in UTC both rules write the same text.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session import index, session
from tools.mutation.semantic._support import Delegate

AREAS = ("session",)
PATTERN = "local time vs UTC"


def local_timestamp(epoch_seconds: float) -> str:
    return datetime.fromtimestamp(epoch_seconds).isoformat(timespec="milliseconds") + "Z"


@contextlib.contextmanager
def _local_time() -> Iterator[None]:
    """The session layer stamps entries and the index through this one function of each module; it is
    swapped only while a call of this implementation runs, so the process around it keeps UTC."""
    saved = index.iso_timestamp, getattr(session, "iso_timestamp")  # noqa: B009 (not re-exported)
    index.iso_timestamp = local_timestamp
    setattr(session, "iso_timestamp", local_timestamp)  # noqa: B010 (not re-exported by name)
    try:
        yield
    finally:
        index.iso_timestamp = saved[0]
        setattr(session, "iso_timestamp", saved[1])  # noqa: B010


def _stamped(result: Any) -> Any:
    return _LocalTimeSession(result) if isinstance(result, session.Session) else result


class _LocalTimeSession(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_inner"), name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with _local_time():
                return _stamped(value(*args, **kwargs))

        return call


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_local_time"

    def create_session(self, *args: Any, **kwargs: Any) -> Any:
        with _local_time():
            return _stamped(super().create_session(*args, **kwargs))

    def find_session(self, *args: Any, **kwargs: Any) -> Any:
        with _local_time():
            return _stamped(super().find_session(*args, **kwargs))

    def continue_session(self, *args: Any, **kwargs: Any) -> Any:
        with _local_time():
            return _stamped(super().continue_session(*args, **kwargs))

    def delete_session(self, *args: Any, **kwargs: Any) -> Any:
        with _local_time():
            return super().delete_session(*args, **kwargs)


implementation = Mutant
