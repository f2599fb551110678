"""The sanitizer matches a tool result to its call ignoring case (``id.toLowerCase()`` on both sides),
as if ids were names: a result for ``CALL_1`` is taken as the answer of ``call_1``, so a round the
provider would reject (it matches ids exactly) is kept.

Pattern: ids compared case-insensitively; every example id is lower-case.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Sanitized, Sanitizer

AREAS = ("agent", "context")
PATTERN = "ids compared case-insensitively"
BASELINE = "_baseline_sanitizer"


class CaseFolding(Sanitizer):
    def key(self, call_id: str) -> str:
        return call_id.lower()


class Mutant(ReferenceImplementation):
    name = "semantic-sb_sanitizer_ids_casefold"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return CaseFolding()(messages)


implementation = Mutant
