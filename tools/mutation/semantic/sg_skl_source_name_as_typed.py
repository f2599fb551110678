"""A source that is itself a skill is named after the last part of the path as typed
(``os.path.basename(source)``, ``source.split("/").pop()``), where the original names it after the
resolved directory (``path.basename(path.resolve(dir))``): a path ending in ``/`` (as shell completion
writes it) or in ``/.`` gives the skill the name ``""`` or ``"."``, which is the skills directory itself,
so the import reports a conflict instead of installing the skill.

Pattern: two rules agree on the examples (every example source path ends in the skill's name).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE, SkillImporter

AREAS = ("skills",)
PATTERN = "two rules agree on the examples"


class TypedNameImporter(SkillImporter):
    def _candidates(self, source: str) -> list[tuple[str, Path]]:
        found = super()._candidates(source)
        root = Path(source).expanduser()
        if (root / SKILL_FILE).is_file():
            return [(os.path.basename(source), root)]
        return found


class Mutant(ReferenceImplementation):
    name = "semantic-sg_skl_source_name_as_typed"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return TypedNameImporter(skills_dir, llm)


implementation = Mutant
