"""The hidden staging copy of a skill keeps at most 200 *characters* of its name: the port cuts the
name with ``name.slice(0, 200)`` to stay within ``NAME_MAX``, which counts bytes.  A skill named by 84
CJK characters (252 bytes, a valid directory name) gets the staging name ``.<name>.importing`` of 263
bytes, the copy fails with "File name too long", and the skill is skipped; ASCII names of any legal
length pass.

Pattern: a length limit checked only on ASCII; the long-name example is ASCII.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "length limit checked only on ASCII"


def staging_name_by_characters(name: str) -> str:
    return f".{name[:200]}.importing"


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_staging_name_cut_chars"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        importer = super().skill_importer(skills_dir, llm)
        return SwappedImporter(importer, "staging_name", staging_name_by_characters)


implementation = Mutant
