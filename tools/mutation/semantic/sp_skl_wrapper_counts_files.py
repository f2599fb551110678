"""A source is unwrapped only when ``skills/`` is the only visible entry in it, files included: the port
filters the listing by name (``entries.filter(e => !e.name.startsWith('.'))``) and forgets the
``isDirectory()`` test the original makes, so a repository holding ``README.md`` or ``LICENSE`` beside its
``skills/`` (the usual shape of a published skill collection) is read as a directory of skills, where
``skills/`` itself is no skill, and the import finds nothing.

Pattern: two rules agree on the examples; every wrapper of the examples holds directories only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "two rules agree on the examples"


class Importer(SkillImporter):
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        root = Path(source).expanduser()
        if root.is_dir() and not (root / SKILL_FILE).is_file():
            visible = sorted(p.name for p in root.iterdir() if not p.name.startswith("."))
            if "skills" in visible and visible != ["skills"]:
                return self._skills_in(root)  # more than skills/ in sight: no wrapper for the port
        return super()._candidates(source)


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_wrapper_counts_files"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(skills_dir, llm)


implementation = Mutant
