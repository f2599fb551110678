"""A ``SKILL.md`` that is a symbolic link does not make its directory a skill: the port tells files by the
type of the directory entry, which does not follow links (Node's ``Dirent.isFile()``, Rust's
``DirEntry::file_type()``, Go's ``DirEntry.Type().IsRegular()``), where the original asks whether the path
exists (``fs.access``), which follows them.  A skill whose ``SKILL.md`` links to a shared copy (a
monorepo, a dotfiles checkout) is silently not imported: the command reports that it found no skills.

Pattern: two rules agree on the examples: every example ``SKILL.md`` is a regular file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import importer
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("skills",)
PATTERN = "two rules agree on the examples"


def _regular_skill_file(directory: Path) -> bool:
    skill_file = directory / importer.SKILL_FILE
    return skill_file.is_file() and not skill_file.is_symlink()


def _skills_in(directory: Path) -> list[tuple[str, Path]]:
    return [
        (p.name, p)
        for p in sorted(directory.iterdir())
        if p.is_dir() and not p.name.startswith(".") and _regular_skill_file(p)
    ]


def _candidates(self: Any, source: str) -> list[tuple[str, Path]]:
    if "://" in source:
        raise importer.ImportSourceError(f"Remote import sources are not supported here: {source}")
    root = Path(source).expanduser()
    if not root.exists():
        raise importer.ImportSourceError(f"Import source not found: {source}")
    if not root.is_dir():
        raise importer.ImportSourceError(f"Import source is not a directory: {source}")
    if _regular_skill_file(root):
        return [(root.resolve().name, root)]
    visible = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if [p.name for p in visible] == ["skills"]:
        nested = _skills_in(root / "skills")
        if nested:
            return nested
    return _skills_in(root)


class Importer(Delegate):
    def import_skills(self, source: str, **options: Any) -> Any:
        with swapped(importer.SkillImporter, "_candidates", _candidates):
            return self._inner.import_skills(source, **options)


class Mutant(ReferenceImplementation):
    name = "semantic-si_skl_skill_file_link_unseen"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
