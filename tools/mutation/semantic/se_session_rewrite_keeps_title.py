"""Rewriting the history never changes a title the session already has: the port reads "the title is
the first user message" as "set once, on the first append", so after ``rewrite_history`` (a compaction, an
edit of the conversation) the old title stays even when the new history starts with another user message
or has no user message at all.  The original takes the title of the rewritten history, except that a
compacted history (which starts with the summary) keeps its topic.

Pattern: two rules agree on the examples (a rewrite that keeps the first user message, or a compaction,
gives the same title either way).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.session import session as session_module
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

_reference_set_title = getattr(session_module, "_set_title")  # noqa: B009 (private helper)


def set_once(entry: Any, title: Any) -> None:
    if entry.get("title") is None:
        _reference_set_title(entry, title)


def _title_set_once() -> Any:
    return swapped(session_module, "_set_title", set_once)


AREAS = ("session",)
PATTERN = "two rules agree on the examples"


class TitleOnceSession(Delegate):
    def rewrite_history(self, messages: Any) -> None:
        with _title_set_once():
            self._inner.rewrite_history(messages)


class Mutant(SessionMutant):
    name = "semantic-se_session_rewrite_keeps_title"
    session_class = TitleOnceSession


implementation = Mutant
