"""The title is looked for once, at the first user message the session sees: the port marks the title as
settled there (``titleChecked = true``, or stores ``""`` and tests ``title === undefined``), where the
original tests ``!this._title``, so a first user message without text (only an image, only blanks)
leaves the session untitled and the next user message that has text names it.  In the port such a
session stays untitled for good.

Pattern: empty string vs missing value (an empty title taken for a title); every example's first user
message has text.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.session import session as session_module
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped


def _no_title(messages: Any) -> None:
    return None


def _has_user(message_or_list: Any) -> bool:
    messages = message_or_list if isinstance(message_or_list, list) else [message_or_list]
    return any(isinstance(m, dict) and m.get("role") == "user" for m in messages)


class SettledTitleSession(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_user_seen = False

    def append_message(self, message_or_list: Any) -> None:
        if self._mut_user_seen:
            with swapped(session_module, "_first_user_title", _no_title):
                self._inner.append_message(message_or_list)
            return
        self._inner.append_message(message_or_list)
        self._mut_user_seen = _has_user(message_or_list)


AREAS = ("session",)
PATTERN = "empty string vs missing value"


class Mutant(SessionMutant):
    name = "semantic-sg_session_title_first_user_only"
    session_class = SettledTitleSession


implementation = Mutant
