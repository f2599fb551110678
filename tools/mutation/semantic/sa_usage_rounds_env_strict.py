"""``SYNAPSE_MAX_ROUNDS_KEPT`` is parsed strictly (``Number(value)`` must be a whole number, else the
default 50), where the spec reads every integer setting like ``parseInt``: ``"5.9"`` and ``"5 rounds"``
keep 5 rounds, not 50.

Pattern: ``parseInt("1.5")`` style parsing; the examples give the setting as plain digits.
"""

from __future__ import annotations

import os
import re
from typing import Any

from tools.mutation.semantic._support import Delegate, SessionMutant, patched_env

AREAS = ("session",)
PATTERN = "parseInt-style parsing"
NAME = "SYNAPSE_MAX_ROUNDS_KEPT"


def strict() -> patched_env:
    """The setting as the strict parse sees it: anything but plain digits is not set."""
    value = os.environ.get(NAME)
    keep = value is not None and re.fullmatch(r"\s*[+-]?\d+\s*", value) is not None
    return patched_env(NAME, value if keep else None)


class Session(Delegate):
    def update_usage(self, usage: Any, model: str | None = None) -> None:
        with strict():
            self._inner.update_usage(usage, model)


class Mutant(SessionMutant):
    name = "semantic-sa_usage_rounds_env_strict"
    session_class = Session

    def accumulate_usage(self, usage: Any, round_usage: Any, pricing: Any = None) -> Any:
        with strict():
            return super().accumulate_usage(usage, round_usage, pricing)


implementation = Mutant
