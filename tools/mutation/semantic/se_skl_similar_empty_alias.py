"""An empty field of the similarity answer gives way to its alias: the port reads the aliases with
``item.target || item.name`` (Python's ``or``), where the original's ``??`` lets only a missing or null
field fall back.  ``{"target": "", "name": "git-commit", ...}`` names no skill in the original, which
imports; the port reports it similar to ``git-commit`` and imports nothing.

Pattern: empty string vs missing value (``||`` where the original writes ``??``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "empty string vs missing value"


def first_truthy(item: Mapping[str, Any], name: str, alias: str) -> Any:
    return item.get(name) or item.get(alias)


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_similar_empty_alias"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "_first_given", first_truthy)


implementation = Mutant
