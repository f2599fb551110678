"""A compaction summary never becomes a session's title: the port guards the title with
``if (!title.startsWith('[Compressed History]')) this._title = title``, reading the rule "a compressed
history keeps the conversation's title" as "a summary is never a title", where the original sets the
title from the rewritten history's first user message and only a title already there is kept.  A session
compacted while it has no title yet (its first message was an image, or it was cleared) stays untitled
in ``/resume`` instead of being named by its summary.

Pattern: two rules agree on the examples; every compacted session of the examples had a title.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.session import COMPRESSED_HISTORY_TITLE
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "two rules agree on the examples"

_set_title = session_module._set_title


def set_title_unless_summary(entry: Any, title: str | None) -> None:
    if title is not None and title.startswith(COMPRESSED_HISTORY_TITLE):
        return
    _set_title(entry, title)


class Session(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "_set_title", set_title_unless_summary)


class Mutant(SessionMutant):
    name = "semantic-sp_session_compressed_title_never_set"
    session_class = Session


implementation = Mutant
