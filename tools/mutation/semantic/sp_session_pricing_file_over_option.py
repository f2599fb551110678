"""``pricing.json`` wins over the pricing table the session was created with: the port loads the file
first and falls back to the table it was given (``loadPricing() ?? this.pricing``, "the user's file
overrides the built-in prices"), where the contract reads the file only when no table is given.  A
caller that prices a session itself (a test, an embedding with its own price list) gets the prices of
whatever ``pricing.json`` lies in the home directory.

Pattern: precedence between two sources of one value; every example gives the session a table or a
file, never both.
"""

from __future__ import annotations

from collections.abc import Mapping

from synapse_ref.session.paths import pricing_path
from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "precedence between two sources"


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        inner = self._inner
        given = inner._pricing
        if given is None or not pricing_path().is_file():
            inner.update_usage(usage, model)
            return
        inner._pricing = None  # the file, read by the session itself, takes the given table's place
        try:
            inner.update_usage(usage, model)
        finally:
            inner._pricing = given


class Mutant(SessionMutant):
    name = "semantic-sp_session_pricing_file_over_option"
    session_class = Session


implementation = Mutant
