"""The title comes from the first user message *that has text*: the port looks for
``messages.find(m => m.role === 'user' && extractTitle(m))`` ("skip messages that give no title"),
where the original takes the first user message of the write and extracts its title, which may be none.
A write that opens with a user message of images or tool results only and then holds a typed question
(one ``appendMessage([...])`` of a whole turn, a history rewritten after a compaction) is titled by the
question in the port and left untitled until a later write in the original.

Pattern: only the first of several; every example write's first user message has text, or the write
holds one user message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from synapse_ref.session.session import title_from
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "only the first of several"


def first_titled_user(messages: Sequence[Any]) -> str | None:
    for message in messages:
        if isinstance(message, Mapping) and message.get("role") == "user":
            title = title_from(message)
            if title is not None:
                return title
    return None


class Session(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "_first_user_title", first_titled_user)


class Mutant(SessionMutant):
    name = "semantic-sk_session_title_first_titled_user"
    session_class = Session


implementation = Mutant
