"""``SYNAPSE_MAX_SESSIONS`` is read with a leading-digits pattern that has no sign
(``/^\\s*(\\d+)/``), a hand-written ``parseInt`` that forgets the optional ``+``/``-``: ``"+2"`` falls back
to the default of 100 sessions, where ``parseInt("+2")`` keeps 2.  A negative setting also falls back to
100, which keeps every session just as ``parseInt``'s negative number does, so those examples agree.

Pattern: parseInt-style parsing (a sign before the digits); the examples give plain digits or a negative
number, where the two parses lead to the same eviction.
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
    name = "semantic-se_session_max_sessions_unsigned"

    def create_session(self, sessions_dir: Any, **options: Any) -> Any:
        value = os.environ.get(NAME)
        digits = re.match(r"\s*(\d+)", value or "")
        with patched_env(NAME, digits.group(1) if digits else None):
            return super().create_session(sessions_dir, **options)


implementation = Mutant
