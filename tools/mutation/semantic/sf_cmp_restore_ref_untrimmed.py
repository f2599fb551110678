"""An offload reference preceded by whitespace is not restored for the summary: the port's restore step
tests ``text.startsWith("Tool result is at:")`` on the raw text, where the original trims it first, so
a reference written after a newline (``"\\nTool result is at: <path>"``) reaches the summary model as a
bare path instead of the tool's output.

Pattern: leading whitespace before a marker, checked on the offload side (CTX-081) but not on restore.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor, _first_text
from synapse_ref.context.context_manager import OFFLOAD_REFERENCE_PREFIX
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "leading whitespace before a marker"
BASELINE = "_baseline_orchestrator"


def padded(message: Any) -> bool:
    text = _first_text(message) if message.get("role") == "tool" else None
    return text is not None and not text.startswith(OFFLOAD_REFERENCE_PREFIX)


class Compactor(ContextCompactor):
    def restore_offloaded_content(self, messages: list[Any]) -> list[Any]:
        restored = super().restore_offloaded_content(messages)
        return [
            original if padded(original) else done for original, done in zip(messages, restored, strict=True)
        ]


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_restore_ref_untrimmed"
    compactor = Compactor


implementation = Mutant
