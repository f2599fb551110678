"""A ``skills/`` wrapper that holds no skill gives no candidates, even when ``skills/`` is itself a skill
(it holds ``SKILL.md``): the port returns the nested listing as it is (``return
toSkillCandidates(nestedRoot, ...)``), where the original falls back to the source's own directories when
the nested listing is empty.  Importing a repository whose one directory is a skill named ``skills``
finds nothing ("No skills found").

Pattern: the fallback of one branch forgotten; every example wrapper holds at least one skill.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "fallback forgotten in one branch"


class NoFallbackImporter(SkillImporter):
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        root = Path(source).expanduser()
        if "://" not in source and root.is_dir() and not (root / SKILL_FILE).is_file():
            visible = [p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")]
            if visible == ["skills"]:
                return self._skills_in(root / "skills")
        return super()._candidates(source)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_skl_wrapper_no_fallback"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return NoFallbackImporter(skills_dir, llm)


implementation = Mutant
