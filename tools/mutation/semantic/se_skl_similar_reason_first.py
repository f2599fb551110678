"""The similarity answer's ``reason`` is read before the original's own field ``similarity``: the port
lists the aliases in the order of the prompt's example (``{"name", "reason"}``) and falls back to the
original's names, where the original reads ``item.similarity ?? item.reason``.  A model that gives both
fields is reported with its ``reason`` instead of its ``similarity``.

Pattern: precedence between two sources of one value; each example answer gives one of the two fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import importer
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "precedence between two sources of one value"

_reference = getattr(importer, "_first_given")  # noqa: B009 (private helper)


def first_given(item: Mapping[str, Any], name: str, alias: str) -> Any:
    if (name, alias) == ("similarity", "reason"):
        return _reference(item, "reason", "similarity")
    return _reference(item, name, alias)


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_similar_reason_first"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "_first_given", first_given)


implementation = Mutant
