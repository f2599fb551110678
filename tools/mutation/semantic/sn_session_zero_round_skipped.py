"""A round that reports no tokens at all is not recorded: the port returns the usage unchanged when
every count of the round is 0 ("nothing to add"), where the original appends every round to ``rounds``
whatever its counts.  The totals agree, but an unpriced session whose rounds all reported zero shows
``Cost: $0.00`` (no rounds) instead of ``N/A``, and ``rounds`` no longer holds one entry per model call.

Pattern: one entry per round where a round may be empty; the examples' rounds all carry tokens.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.usage import ROUND_KEYS, accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, swapped

AREAS = ("session",)
PATTERN = "one entry per round, an empty round dropped"


def accumulate_skipping_zero(usage: Any, round_usage: Any, pricing: Any = None) -> Any:
    if not any(round_usage.get(key) for key in ROUND_KEYS):
        return {**usage, "rounds": list(usage.get("rounds", []))}
    return accumulate_usage(usage, round_usage, pricing)


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        with swapped(session_module, "accumulate_usage", accumulate_skipping_zero):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sn_session_zero_round_skipped"
    session_class = Session

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return accumulate_skipping_zero(usage, round_usage, pricing)


implementation = Mutant
