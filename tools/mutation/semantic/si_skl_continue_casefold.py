"""``--continue=<name>`` names a skill without regard to case: the port compares the listed names with
the source's skills case-insensitively (``continueSkills.some(n => n.toLowerCase() === name.toLowerCase())``,
the habit of a port written on a case-insensitive file system), where the original's
``continueSkills.includes(name)`` takes only the exact name.  ``--continue=Commit-Helper`` then imports
``commit-helper`` without the similarity check, which the user never asked to skip for it.

Pattern: ids compared case-insensitively; every example lists the skills exactly as they are named.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ImportOptions, OptionsImporter

AREAS = ("skills",)
PATTERN = "ids compared case-insensitively"


def _source_names(source: str) -> list[str]:
    """Every directory name below the source (two levels), the candidates a listed name may stand for."""
    root = Path(source).expanduser()
    names = [root.resolve().name] if root.is_dir() else []
    for level in (root, root / "skills"):
        try:
            names += [p.name for p in level.iterdir() if p.is_dir()]
        except OSError:
            continue
    return names


class Importer(OptionsImporter):
    def options(
        self, source: str, continue_skills: Sequence[str], merge_into: Sequence[tuple[str, str]]
    ) -> ImportOptions:
        wanted = {name.casefold() for name in continue_skills}
        matched = [name for name in _source_names(source) if name.casefold() in wanted]
        return tuple(dict.fromkeys([*continue_skills, *matched])), merge_into


class Mutant(ReferenceImplementation):
    name = "semantic-si_skl_continue_casefold"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
