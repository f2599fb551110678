"""When two ``--merge`` pairs name the same skill, the last one decides its target: the port reads the
pairs into a map (``Object.fromEntries(mergeInto)``, ``dict(pairs)``), where the original looks the skill
up with ``mergeInto.find(...)`` and merges it into the target of the first pair.

Pattern: keeping the first vs the last of duplicates; every example names a skill in one pair only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ImportOptions, OptionsImporter

AREAS = ("skills",)
PATTERN = "keeping the first vs the last of duplicates"


class Importer(OptionsImporter):
    def options(
        self, source: str, continue_skills: Sequence[str], merge_into: Sequence[tuple[str, str]]
    ) -> ImportOptions:
        last_target = dict(merge_into)
        return continue_skills, [(name, last_target[name]) for name in last_target]


class Mutant(ReferenceImplementation):
    name = "semantic-sg_skl_merge_pair_last_wins"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
