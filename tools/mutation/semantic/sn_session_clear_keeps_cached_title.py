"""``clear()`` removes the title from the index but the session object keeps its own copy: the port
resets ``messageCount`` and the usage in memory and forgets ``this._title = undefined``, where the
original forgets the title too.  The first message after ``/clear`` then gives no title (the object
still believes it has one), and the index stays untitled until a later write; a ``title`` read in
between still shows the old conversation's.

Pattern: state kept after one branch (clear) that a later call depends on; the examples check the index
right after a clear, not the title of the conversation that follows it.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "state kept across calls"


class Session(Delegate):
    def clear(self, *args: Any, **kwargs: Any) -> None:
        inner = object.__getattribute__(self, "_inner")
        title = inner.title
        inner.clear(*args, **kwargs)
        if title is not None:
            inner._title = title  # the in-memory copy the port forgot to reset


class Mutant(SessionMutant):
    name = "semantic-sn_session_clear_keeps_cached_title"
    session_class = Session


implementation = Mutant
