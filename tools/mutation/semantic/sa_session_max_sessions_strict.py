"""``SYNAPSE_MAX_SESSIONS`` is parsed strictly (``Number(value)`` must be a whole number, else the default
of 100), where the spec reads it like ``parseInt``, as the original's ``parseEnvInt`` does: ``"2.5"``
keeps 2 sessions and evicts the rest.

Pattern: ``parseInt("1.5")`` style parsing; the examples give the limit as plain digits.
"""

from __future__ import annotations

import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import patched_env

AREAS = ("session",)
PATTERN = "parseInt-style parsing"
NAME = "SYNAPSE_MAX_SESSIONS"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_session_max_sessions_strict"

    def create_session(self, sessions_dir: Any, **options: Any) -> Any:
        value = os.environ.get(NAME)
        keep = value is not None and re.fullmatch(r"\s*[+-]?\d+\s*", value) is not None
        with patched_env(NAME, value if keep else None):
            return super().create_session(sessions_dir, **options)


implementation = Mutant
