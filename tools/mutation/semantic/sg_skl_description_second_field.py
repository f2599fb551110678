"""The description of an installed skill, which the similarity request lists, is the second field of its
``description:`` line split at every colon (``line.split(":")[1]``), where the original keeps everything
after the first colon: a description that itself holds a colon (``Commit helper: writes conventional
commits``) reaches the model cut to ``Commit helper``, so the model compares against half of what the
skill does.

Pattern: inputs that carry two things (the key separator also occurs in the value); no example
description holds a colon.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "separator also inside the value"


def second_field(skill_md: str) -> str:
    for line in skill_md.splitlines():
        fields = line.split(":")
        if len(fields) > 1 and fields[0].strip().strip("*").lower() == "description":
            return fields[1].strip().strip("\"'")
    return ""


class Mutant(ReferenceImplementation):
    name = "semantic-sg_skl_description_second_field"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "_description", second_field)


implementation = Mutant
