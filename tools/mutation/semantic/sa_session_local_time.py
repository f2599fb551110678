"""The timestamps of ``sessions.json`` are written in local time with a ``Z`` appended
(``datetime.now().isoformat(timespec="milliseconds") + "Z"``, or ``LocalDateTime.now()``), where the
original's ``toISOString()`` always writes UTC: the format is right, the moment is off by the offset.

Pattern: time zones (local vs UTC); on a machine that runs in UTC both rules write the same text.
"""

from __future__ import annotations

from datetime import datetime

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("session",)
PATTERN = "local time vs UTC"


def local_timestamp(epoch_seconds: float) -> str:
    return datetime.fromtimestamp(epoch_seconds).isoformat(timespec="milliseconds") + "Z"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_local_time"

    def __init__(self) -> None:
        # The session layer stamps entries and the index through this one function of each module.
        from synapse_ref.session import index, session

        index.iso_timestamp = local_timestamp
        setattr(session, "iso_timestamp", local_timestamp)  # noqa: B010 (not re-exported by name)


implementation = Mutant
