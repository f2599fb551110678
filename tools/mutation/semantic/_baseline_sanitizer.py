"""The reference adapter with the self-contained sanitizer of ``_sanitizer`` and no rule changed.

Not a mutant: it must pass the agent and context features (both hold sanitizer scenarios), which shows
that the sanitizer mutants are killed by their changed rule::

    pytest features/agent features/context --synapse-impl=tools.mutation.semantic._baseline_sanitizer
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Sanitized, Sanitizer

AREAS = ("agent", "context")


class Baseline(ReferenceImplementation):
    name = "semantic-baseline-sanitizer"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return Sanitizer()(messages)


implementation = Baseline
