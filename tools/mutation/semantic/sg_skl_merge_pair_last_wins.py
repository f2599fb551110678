"""When two ``--merge`` pairs name the same skill, the last one decides its target: the port reads the
pairs into a map (``Object.fromEntries(mergeInto)``, ``dict(pairs)``), where the original looks the skill
up with ``mergeInto.find(...)`` and merges it into the target of the first pair.

Pattern: keeping the first vs the last of duplicates; every example names a skill in one pair only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "keeping the first vs the last of duplicates"


class Importer(Delegate):
    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Any:
        last_target = dict(merge_into)
        pairs = [(name, last_target[name]) for name in last_target]
        return self._inner.import_skills(source, continue_skills=continue_skills, merge_into=pairs)


class Mutant(ReferenceImplementation):
    name = "semantic-sg_skl_merge_pair_last_wins"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
