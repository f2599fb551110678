"""``clear()`` resets the usage to a brand-new record with the default model (``createEmptyUsage()``
called without the session's model, whose parameter defaults to ``"unknown-model"``), where the original's
``resetUsage`` keeps the model of the usage it resets: after ``/clear`` the next rounds are priced for
no model, and ``/cost`` shows ``N/A`` for a priced model.

Pattern: state checked after one branch only (the reset usage is checked for its zero totals, not for
the model it keeps).
"""

from __future__ import annotations

from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import create_empty_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session", "agent", "repl")
PATTERN = "state checked after one branch only"


def fresh_usage(usage: Any) -> Any:
    return create_empty_usage("unknown-model")


def _fresh_reset() -> Any:
    return swapped(session_module, "_reset_usage", fresh_usage)


class FreshResetSession(Delegate):
    def clear(self, *, reset_usage: bool = True) -> None:
        with _fresh_reset():
            self._inner.clear(reset_usage=reset_usage)


class Mutant(SessionMutant):
    name = "semantic-se_session_clear_resets_model"
    session_class = FreshResetSession


implementation = Mutant
