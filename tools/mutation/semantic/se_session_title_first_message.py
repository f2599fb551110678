"""The title comes from the first message of the history that has text, whatever its role: the port
reads "the title is the conversation's first message" literally, where the original takes the first
*user* message.  A history that starts with the assistant's greeting (a resumed or imported conversation,
a rewrite that keeps a system note first) is titled with the greeting.

Pattern: two rules agree on the examples (every example history starts with a user message).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.session import session as module
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


def first_title(messages: list[Any]) -> str | None:
    for message in messages:
        if isinstance(message, dict):
            title = module.title_from(message)
            if title is not None:
                return title
    return None


class AnyRoleSession(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "_first_user_title", first_title)


class Mutant(SessionMutant):
    name = "semantic-se_session_title_first_message"
    session_class = AnyRoleSession


implementation = Mutant
