"""Importing a skill copies its ``versions/`` along: the port copies the source directory whole
(``fs.cpSync(src, dest, { recursive: true })``) and leaves out ``versions/`` only when it snapshots an
installed skill, where the original imports with the same snapshot copy that never takes ``versions/``.
A skill imported from another installation (a shared skills directory, a colleague's backup) arrives
with that installation's old versions, which ``/skills`` then lists as its own.

Pattern: state carried over that one branch clears; every imported source skill of the examples has
no ``versions/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import VERSIONS_DIR, SkillImporter

AREAS = ("skills",)
PATTERN = "state carried over"


class Importer(SkillImporter):
    def _copy(self, name: str, source: Path, target: Path, result: dict[str, Any]) -> None:
        super()._copy(name, source, target, result)
        if result["imported"][-1:] == [name] and (source / VERSIONS_DIR).is_dir():
            shutil.copytree(source / VERSIONS_DIR, target / VERSIONS_DIR, symlinks=True)


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_import_copies_versions"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(skills_dir, llm)


implementation = Mutant
