"""Only the first text part of a kept tool message is read for offload references: the port reuses the
restore step's ``firstText(message)`` to collect what the kept tail references, where the original looks
at every text part, so a reference in a tool message's second part no longer protects its file and the
compaction deletes it.

Pattern: one event per round (one part per message) where the examples have one part each.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from synapse_ref.context.compactor import ContextCompactor, _first_text, extract_offload_filepath
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "one event per round"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def collect_referenced_offload_files(self, messages: Iterable[Any]) -> set[str]:
        referenced: set[str] = set()
        for message in messages:
            text = _first_text(message) if message.get("role") == "tool" else None
            filepath = extract_offload_filepath(text) if text is not None else None
            normalized = self.normalize_offloaded_filepath(filepath) if filepath is not None else None
            if normalized is not None:
                referenced.add(normalized)
        return referenced


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_keep_first_text_only"
    compactor = Compactor


implementation = Mutant
