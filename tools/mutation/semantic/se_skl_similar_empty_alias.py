"""An empty field of the similarity answer gives way to its alias: the port reads the aliases with
``item.target || item.name`` (Python's ``or``), where the original's ``??`` lets only a missing or null
field fall back.  ``{"target": "", "name": "git-commit", ...}`` names no skill in the original, which
imports; the port reports it similar to ``git-commit`` and imports nothing.

Pattern: empty string vs missing value (``||`` where the original writes ``??``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import importer
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("skills",)
PATTERN = "empty string vs missing value"


def first_truthy(item: Mapping[str, Any], name: str, alias: str) -> Any:
    return item.get(name) or item.get(alias)


class FalsyImporter(Delegate):
    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Any:
        with swapped(importer, "_first_given", first_truthy):
            return self._inner.import_skills(source, continue_skills=continue_skills, merge_into=merge_into)


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_similar_empty_alias"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return FalsyImporter(super().skill_importer(skills_dir, llm))


implementation = Mutant
