"""``--continue=<name>`` is checked before the name conflict: the port reads "import these skills
without asking" as "import them whatever happens", so a source skill named like an installed one and listed
in ``--continue`` replaces the installed skill (its files are removed and the source copied in) instead of
being reported as a conflict.  The original checks the conflict first, for every skill; ``--continue``
only skips the similarity check.

Pattern: precedence between two sources of one decision (the conflict rule vs the option); the examples
never name an installed skill in ``--continue``.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SkillImporter

AREAS = ("skills",)
PATTERN = "precedence between two sources of one value"


class ContinueFirstImporter(SkillImporter):
    async def import_skills_async(
        self,
        source: str,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> dict[str, Any]:
        candidates = self._candidates(source)
        self._skills_dir.mkdir(parents=True, exist_ok=True)
        merges = dict(merge_into)
        result: dict[str, Any] = {"imported": [], "skipped": [], "conflicts": [], "similar": []}
        for name, path in candidates:
            target = self._skills_dir / name
            if name in continue_skills:
                shutil.rmtree(target, ignore_errors=True)
                self._copy(name, path, target, result)
            elif target.exists():
                result["conflicts"].append({"name": name, "existingPath": str(target), "newPath": str(path)})
            elif name in merges:
                await self._merge(name, path, merges[name], result)
            else:
                similar = await self._similar_to(path)
                if similar is not None:
                    result["similar"].append({"name": name, "similarTo": similar[0], "reason": similar[1]})
                else:
                    self._copy(name, path, target, result)
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_continue_over_conflict"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return ContinueFirstImporter(skills_dir, llm)


implementation = Mutant
