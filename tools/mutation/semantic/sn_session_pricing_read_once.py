"""A session reads ``pricing.json`` once, at its first round, and prices every later round with that
table: the port caches the loaded pricing on the session (``this.pricing ??= loadPricing()``), where the
original loads it again for every ``updateUsage``.  A price added or corrected while a session is open
(the model was missing from the file, the file was created after the first answer) is ignored until the
REPL is restarted, and the cost stays ``N/A`` for the rest of that session.

Pattern: state kept across calls that should be per call; every example session is priced by a table
that does not change during it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.pricing import load_pricing
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "state kept across calls"

_UNREAD = object()


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        if getattr(self, "_mut_pricing", _UNREAD) is _UNREAD:

            def load_and_keep(*args: Any, **kwargs: Any) -> Any:
                self._mut_pricing = load_pricing(*args, **kwargs)
                return self._mut_pricing

            with swapped(session_module, "load_pricing", load_and_keep):
                self._inner.update_usage(usage, model)
            return
        cached = self._mut_pricing
        with swapped(session_module, "load_pricing", lambda *args, **kwargs: cached):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sn_session_pricing_read_once"
    session_class = Session


implementation = Mutant
