"""``SYNAPSE_MAX_ROUNDS_KEPT`` falls back to its default only when it reads as 0 or not at all: the port
writes the JavaScript idiom ``parseInt(env, 10) || 50`` and trims with the original's
``rounds.slice(rounds.length - max)``, where a setting of zero *or less* is no limit a user meant and
falls back to 50.  ``-3`` passes ``||``, and ``slice(length + 3)`` keeps no round at all: an unpriced
session then has nothing to tell it from an empty one, and ``/cost`` shows ``$0.00`` instead of ``N/A``.

Pattern: ``??`` against ``||`` (a falsy zero against a negative value); the examples give 0, which ``||``
sends to the default too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from synapse_ref.session.paths import env_int
from synapse_ref.session.usage import accumulate_usage
from tools.mutation.semantic._support import Delegate, SessionMutant, patched_env, swapped

AREAS = ("session", "repl")
PATTERN = "?? against || for 0"

SETTING = "SYNAPSE_MAX_ROUNDS_KEPT"


def accumulate_or_default(
    usage: Mapping[str, Any], round_usage: Mapping[str, int], pricing: Any = None
) -> Any:
    keep = env_int(SETTING, 0) or 50
    with patched_env(SETTING, str(10**9)):  # the reference keeps every round; the port trims them
        result = accumulate_usage(usage, round_usage, pricing)
    rounds = result["rounds"]
    if len(rounds) > keep:
        result["rounds"] = rounds[max(len(rounds) - keep, 0) :] if keep > 0 else []
    return result


class Session(Delegate):
    def update_usage(self, usage: Mapping[str, int], model: str | None = None) -> None:
        with swapped(session_module, "accumulate_usage", accumulate_or_default):
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sr_session_rounds_negative_setting"
    session_class = Session

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        return accumulate_or_default(usage, round_usage, pricing)


implementation = Mutant
