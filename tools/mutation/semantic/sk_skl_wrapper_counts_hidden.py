"""A ``skills/`` wrapper is recognised only when it is the source's one directory, hidden ones counted:
the port tests ``entries.filter(e => e.isDirectory()).length === 1`` and forgets the ``!name.startsWith('.')``
it applies everywhere else, where the original counts only the visible directories.  A cloned repository
always holds ``.git`` beside its ``skills/``, so importing it finds no skill at all ("Import completed. No
skills found."), while the same tree without ``.git`` imports fine.

Pattern: a rule applied in one place and forgotten in another; no example source holds a hidden directory
beside its wrapper.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SKILL_FILE
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "a rule applied in one place only"


class Importer(Delegate):
    def import_skills(
        self,
        source: str,
        *,
        continue_skills: Sequence[str] = (),
        merge_into: Sequence[tuple[str, str]] = (),
    ) -> Any:
        inner = self._inner
        reference = inner._candidates

        def candidates(given: str) -> list[tuple[str, Path]]:
            root = Path(given).expanduser()
            if root.is_dir() and not (root / SKILL_FILE).is_file():
                every = [p for p in root.iterdir() if p.is_dir()]
                if [p.name for p in every] != ["skills"] and any(p.name == "skills" for p in every):
                    return list(inner._skills_in(root))
            return list(reference(given))

        inner._candidates = candidates
        try:
            return inner.import_skills(source, continue_skills=continue_skills, merge_into=merge_into)
        finally:
            del inner._candidates


class Mutant(ReferenceImplementation):
    name = "semantic-sk_skl_wrapper_counts_hidden"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
