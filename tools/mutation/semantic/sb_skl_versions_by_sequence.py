"""Merging keeps the ``SYNAPSE_SKILL_MAX_VERSIONS`` old versions with the highest sequence number
(``NNN`` of ``YYYY-MM-DD-NNN``), ties broken by name: the port sorts on the counter it just
incremented, which orders the versions exactly as the names do as long as they are all of one day.

Pattern: sort by one key vs another when the data agree; versions left from an earlier day with higher
numbers than today's push out the version the merge has just saved.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, env_positive_int, patched_env

AREAS = ("skills",)
PATTERN = "sort by one key vs another when the data agree"

ENV = "SYNAPSE_SKILL_MAX_VERSIONS"
DEFAULT = 20


def by_sequence(version: Path) -> tuple[int, str]:
    number = version.name.rsplit("-", 1)[-1]
    return (int(number) if number.isdigit() else 0, version.name)


class Importer(Delegate):
    def __init__(self, inner: Any, skills_dir: Path) -> None:
        super().__init__(inner)
        self._mut_skills_dir = Path(skills_dir)

    def import_skills(self, source: str, **options: Any) -> Any:
        keep = env_positive_int(ENV, DEFAULT)
        with patched_env(ENV, str(10**9)):
            result = self._inner.import_skills(source, **options)
        for entry in result.get("imported", []) if isinstance(result, dict) else []:
            if " → " not in str(entry):
                continue
            versions = self._mut_skills_dir / str(entry).split(" → ", 1)[1] / "versions"
            if not versions.is_dir():
                continue
            ordered = sorted((p for p in versions.iterdir() if p.is_dir()), key=by_sequence, reverse=True)
            for stale in ordered[keep:]:
                shutil.rmtree(stale, ignore_errors=True)
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-sb_skl_versions_by_sequence"

    def skill_importer(self, skills_dir: Path, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm), skills_dir)


implementation = Mutant
