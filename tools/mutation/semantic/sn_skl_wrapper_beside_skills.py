"""A source directory holding a ``skills/`` directory is read as a wrapper even when skill directories
stand beside it: the port tests ``entries.some(e => e.name === 'skills')`` ("the repository has a skills
folder"), where the original unwraps ``skills/`` only when it is the source's one visible directory.
Importing ``~/my-skills`` that holds ``lint/``, ``deploy/`` and a ``skills/`` of drafts imports the
drafts only and silently leaves ``lint`` and ``deploy`` out.

Pattern: "the only one" vs "one of several"; every example wrapper holds ``skills/`` alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "the only one vs one of several"


class WrapperBesideSkillsImporter(SkillImporter):
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        root = Path(source).expanduser()
        if "://" not in source and root.is_dir() and not (root / SKILL_FILE).is_file():
            nested = root / "skills"
            if nested.is_dir():
                found = self._skills_in(nested)
                if found:
                    return found
        return super()._candidates(source)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_skl_wrapper_beside_skills"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return WrapperBesideSkillsImporter(skills_dir, llm)


implementation = Mutant
