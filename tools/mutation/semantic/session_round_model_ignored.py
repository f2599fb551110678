"""``Session.updateUsage(usage, model)`` keeps the session's recorded model once it has one: the model
is taken as a property of the session, set at creation, rather than of each round.

Pattern: precedence between two sources of one value (the round's model and the session's); only a
round reporting a model other than the session's tells them apart, e.g. after a model switch.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent", "repl")
PATTERN = "precedence between two sources of one value"
DEFAULT_MODEL = "unknown-model"


class Session(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        current = self._inner.get_usage().get("model")
        if current and current != DEFAULT_MODEL:
            model = None
        self._inner.update_usage(usage, model)


def wrap(session: Any) -> Any:
    return Session(session) if session is not None else None


class Mutant(ReferenceImplementation):
    name = "semantic-session_round_model_ignored"

    def create_session(self, sessions_dir: Any, **options: Any) -> Any:
        return wrap(super().create_session(sessions_dir, **options))

    def find_session(self, session_id: str, sessions_dir: Any, **options: Any) -> Any:
        return wrap(super().find_session(session_id, sessions_dir, **options))

    def continue_session(self, sessions_dir: Any) -> Any:
        return wrap(super().continue_session(sessions_dir))


implementation = Mutant
