"""``Session.find(id, {model})`` gives the caller's model precedence over the model of the usage stored
in the index (``options.model ?? info.usage?.model``, the two sources in the wrong order): a session
resumed with the CLI's current model reports, and goes on pricing, its usage under that model.

Pattern: precedence between two sources of one value; the examples resume sessions that have no
stored usage, where the caller's model is the only source.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session",)
PATTERN = "precedence between two sources"


class Session(Delegate):
    def __init__(self, inner: Any, model: str) -> None:
        super().__init__(inner)
        self._mut_model = model

    def get_usage(self) -> Any:
        usage = self._inner.get_usage()
        return {**usage, "model": self._mut_model} if self._mut_model else usage

    def update_usage(self, usage: Any, model: str | None = None) -> None:
        chosen, self._mut_model = model or self._mut_model, ""
        self._inner.update_usage(usage, chosen)


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_find_model_wins"

    def find_session(self, session_id: str, sessions_dir: Any, **options: Any) -> Any:
        session = super().find_session(session_id, sessions_dir, **options)
        model = options.get("model")
        if session is None or not model or session.get_usage().get("model") == model:
            return session
        return Session(session, str(model))


implementation = Mutant
