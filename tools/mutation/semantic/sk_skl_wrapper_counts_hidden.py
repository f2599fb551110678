"""A ``skills/`` wrapper is recognised only when it is the source's one directory, hidden ones counted:
the port tests ``entries.filter(e => e.isDirectory()).length === 1`` and forgets the ``!name.startsWith('.')``
it applies everywhere else, where the original counts only the visible directories.  A cloned repository
always holds ``.git`` beside its ``skills/``, so importing it finds no skill at all ("Import completed. No
skills found."), while the same tree without ``.git`` imports fine.

Pattern: a rule applied in one place and forgotten in another; no example source holds a hidden directory
beside its wrapper.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "a rule applied in one place only"


class WrapperCountsHiddenImporter(SkillImporter):
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        root = Path(source).expanduser()
        if root.is_dir() and not (root / SKILL_FILE).is_file():
            every = [p for p in root.iterdir() if p.is_dir()]
            if [p.name for p in every] != ["skills"] and any(p.name == "skills" for p in every):
                return self._skills_in(root)
        return super()._candidates(source)


class Mutant(ReferenceImplementation):
    name = "semantic-sk_skl_wrapper_counts_hidden"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return WrapperCountsHiddenImporter(skills_dir, llm)


implementation = Mutant
