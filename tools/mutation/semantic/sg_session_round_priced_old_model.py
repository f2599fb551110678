"""A round recorded with a new model is priced at the session's previous model: the port accumulates the
round first and switches the model afterwards (``this._usage = accumulateUsage(...); if (model)
this._usage.model = model``), where the original switches the model before it accumulates, so a round is
priced at the model that produced it.  A session that moves from a priced model to one without a price
is billed the old model's price for the new model's tokens, and the other way round.

Pattern: two rules agree on the examples (every example round is recorded with the session's own model).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "two rules agree on the examples"


class OldModelPricedSession(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        previous = self._inner.get_usage().get("model")

        def priced_at_previous(current: Any, round_usage: Any, pricing: Any = None) -> Any:
            result = accumulate_usage({**current, "model": previous}, round_usage, pricing)
            result["model"] = current["model"]
            return result

        with swapped(session_module, "accumulate_usage", priced_at_previous):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sg_session_round_priced_old_model"
    session_class = OldModelPricedSession


implementation = Mutant
