"""The versions kept by ``--merge`` are named after the local date (``datetime.now()``, JavaScript's
``getFullYear()/getMonth()/getDate()``), where the original names them after the UTC date
(``toISOString().slice(0, 10)``): in a process whose time zone is ahead of or behind UTC, a merge made
around midnight starts a new day's numbering (``001``) a day early or late, or continues another day's.

Pattern: time zones (local vs UTC); the processes of the examples run in UTC, where both dates agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SkillImporter

AREAS = ("skills",)
PATTERN = "local time vs UTC"


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_version_local_date"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SkillImporter(skills_dir, llm, now=lambda: datetime.now().astimezone())


implementation = Mutant
