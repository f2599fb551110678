"""The context settings (``SYNAPSE_COMPACT_TRIGGER_THRESHOLD``, ``SYNAPSE_COMPACT_COOLDOWN_STEPS``, the
offload threshold and the compaction's counts) are read by a ``parseInt`` the port writes with its own
regular expressions, ``\\s*([+-]?)(\\d+)``: Python's ``\\d`` takes the digits of every script and ``int()``
reads them, so ``２００００`` typed on a full-width keyboard is 20000 to the port, where ``parseInt`` reads
no number and the original falls back to its default; Python's ``\\s`` also skips U+001F, which
``parseInt`` does not.

Pattern: a number read the way Python reads it; every example value is ASCII digits, a word or empty.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import settings
from tools.mutation.semantic._support import python_parse_int, swapped

AREAS = ("context",)
PATTERN = "a number read the way Python reads it"


class Mutant(ReferenceImplementation):
    name = "semantic-ss_ctx_settings_python_digits"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        with swapped(settings, "parse_int", python_parse_int):
            return super().context_orchestrator(llm, **options)


implementation = Mutant
