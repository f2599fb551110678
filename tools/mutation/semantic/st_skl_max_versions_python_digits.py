"""``SYNAPSE_SKILL_MAX_VERSIONS`` is read by a port of the original's ``parseEnvPositiveInt`` that trims with
``str.strip()`` and takes the leading digits with ``re.match(r"[+-]?\\d+")``.  Python's ``\\d`` takes the
digits of every script and ``str.strip()`` keeps a byte-order mark, where ``parseInt`` reads ASCII digits
only after JavaScript's white space (U+FEFF included): full-width ``２`` keeps two old versions instead of
the default twenty, and ``{U+FEFF}1`` keeps twenty instead of one.

Pattern: a number read as Python reads it; every example setting is ASCII.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "a number read as Python reads it (Unicode digits, U+FEFF)"

_LEADING_INT = re.compile(r"[+-]?\d+")


def python_positive_int(value: str | None, fallback: int) -> int:
    found = _LEADING_INT.match((value or "").strip())
    parsed = int(found[0]) if found else 0
    return parsed if parsed > 0 else fallback


class Mutant(ReferenceImplementation):
    name = "semantic-st_skl_max_versions_python_digits"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(
            super().skill_importer(skills_dir, llm), "parse_env_positive_int", python_positive_int
        )


implementation = Mutant
