"""A skill named by both ``--continue`` and ``--merge`` is merged: the port tries the more specific
option first (``const target = mergeInto.find(...); if (target) ...; else if (continueSkills.includes
(name)) ...``), where the original checks ``--continue`` first and imports the skill as it is, never
asking the model.  A user who reruns an import with both options the hint printed (to be sure) gets an
installed skill rewritten by the model and a version snapshot instead of a plain copy.

Pattern: precedence between two sources of one decision; no example names a skill in both options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import ImportOptions, OptionsImporter

AREAS = ("skills",)
PATTERN = "precedence between two sources"


class Importer(OptionsImporter):
    def options(
        self, source: str, continue_skills: Sequence[str], merge_into: Sequence[tuple[str, str]]
    ) -> ImportOptions:
        merged = {name for name, _ in merge_into}
        return [name for name in continue_skills if name not in merged], merge_into


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_merge_over_continue"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
