"""A round recorded with an empty model name renames the session's model to ``""``: the port writes
``current.model = model ?? current.model`` (a Python port: ``if model is not None``), where the original
switches the model only for a non-empty name (``if (model && model !== usage.model)``).  A provider that
reports no model for one response leaves the session with a model no price matches, so every later
round's cost is unknown and ``/cost`` shows ``N/A`` for a priced session.

Pattern: ``??`` vs ``||`` (an empty string taken as a value); the examples pass a model name or none.
"""

from __future__ import annotations

from collections.abc import Mapping

from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "empty value taken as set"


class _Given(str):
    """A model name that counts as given even when it is empty, as ``model ?? ...`` counts ``""``."""

    def __bool__(self) -> bool:
        return True


class EmptyModelSession(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        self._inner.update_usage(usage, _Given(model) if model == "" else model)


class Mutant(SessionMutant):
    name = "semantic-sn_session_usage_empty_model_set"
    session_class = EmptyModelSession


implementation = Mutant
