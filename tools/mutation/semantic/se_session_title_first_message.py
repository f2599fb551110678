"""The title comes from the first message of the history that has text, whatever its role: the port
reads "the title is the conversation's first message" literally, where the original takes the first
*user* message.  A history that starts with the assistant's greeting (a resumed or imported conversation,
a rewrite that keeps a system note first) is titled with the greeting.

Pattern: two rules agree on the examples (every example history starts with a user message).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.session import session as module
from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "two rules agree on the examples"

_reference = module._first_user_title


def first_title(messages: list[Any]) -> str | None:
    for message in messages:
        if isinstance(message, dict):
            title = module.title_from(message)
            if title is not None:
                return title
    return None


@contextlib.contextmanager
def _any_role() -> Iterator[None]:
    module._first_user_title = first_title
    try:
        yield
    finally:
        module._first_user_title = _reference


class AnyRoleSession(Delegate):
    def append_message(self, message_or_list: Any) -> None:
        with _any_role():
            self._inner.append_message(message_or_list)

    def rewrite_history(self, messages: Any) -> None:
        with _any_role():
            self._inner.rewrite_history(messages)


class Mutant(SessionMutant):
    name = "semantic-se_session_title_first_message"
    session_class = AnyRoleSession


implementation = Mutant
