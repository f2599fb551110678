"""``Session.updateUsage(usage, model)`` keeps the session's recorded model once it has one: the model
is taken as a property of the session, set at creation, rather than of each round.

Pattern: precedence between two sources of one value (the round's model and the session's); only a
round reporting a model other than the session's tells them apart, e.g. after a model switch.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session", "agent", "repl")
PATTERN = "precedence between two sources of one value"
DEFAULT_MODEL = "unknown-model"


class Session(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        current = self._inner.get_usage().get("model")
        if current and current != DEFAULT_MODEL:
            model = None
        self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-session_round_model_ignored"
    session_class = Session


implementation = Mutant
