"""The similarity check lists hidden directories as installed skills: the port collects "every directory
of the skills directory that has a ``SKILL.md``" and forgets the ``!entry.name.startsWith('.')`` of the
original's ``listInstalledSkillsForSimilarity``.  The staging copy an interrupted import leaves
(``.<name>.importing``) or a skill parked by hand as ``.old-skill`` is then offered to the model as an
existing skill: a first import into an otherwise empty skills directory asks the model at all, and a new
skill can be reported as similar to a skill that ``/skills`` does not list and ``--merge`` cannot reach.

Pattern: a rule applied in one place only; no example skills directory holds a hidden directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter, _description

AREAS = ("skills",)
PATTERN = "a rule applied in one place only"


class HiddenListingImporter(SkillImporter):
    def _installed(self) -> list[tuple[str, str]]:
        skills: Path = self._skills_dir
        return [
            (p.name, _description((p / SKILL_FILE).read_text(encoding="utf-8", errors="replace")))
            for p in sorted(skills.iterdir())
            if p.is_dir() and (p / SKILL_FILE).is_file()
        ]


class Mutant(ReferenceImplementation):
    name = "semantic-sk_skl_similar_lists_hidden"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return HiddenListingImporter(skills_dir, llm)


implementation = Mutant
