"""``--merge`` keeps the target's current files as a version before it asks the model for the merge: the
port takes the backup first ("snapshot, then change", ``await versionManager.createVersion(target)`` at
the top of the merge), where the rule keeps a version only once there is a merged ``SKILL.md`` to put
in place.  A merge that fails (the model errs or answers blank) leaves the target unchanged but with one
more version, identical to the skill, and every failed retry adds another, pushing real versions out
of the ``SYNAPSE_SKILL_MAX_VERSIONS`` window.

Pattern: nothing left behind asserted on the success branch only; the failed merges' examples check the
target's ``SKILL.md`` and the skills directory, not the target's ``versions/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "leftover after a failure branch"


class EarlyVersionImporter(SkillImporter):
    _mut_kept = False

    async def _merge(self, name: str, source: Path, target_name: str, result: dict[str, Any]) -> None:
        target = self._skills_dir / target_name
        if (target / SKILL_FILE).is_file():
            try:
                super()._keep_version(target)
            except OSError:
                pass  # the merge then fails at its own snapshot, as the reference's does
            else:
                self._mut_kept = True
        try:
            await super()._merge(name, source, target_name, result)
        finally:
            self._mut_kept = False

    def _keep_version(self, skill: Path) -> None:
        if not self._mut_kept:
            super()._keep_version(skill)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_skl_version_before_model"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return EarlyVersionImporter(skills_dir, llm)


implementation = Mutant
