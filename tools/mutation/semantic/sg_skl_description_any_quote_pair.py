"""The description of an installed skill, listed in the similarity request, loses any quote that begins
it together with any quote that ends it (``/^["'](.*)["']$/``), where the original removes a pair only
when the same quote begins and ends the value: ``'lint' then "format"`` reaches the model as
``lint' then "format``.

Pattern: two rules agree on the examples (every quoted example description is wrapped in two quotes of
the same kind).
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "two rules agree on the examples"

_ANY_PAIR = re.compile(r"""^["'](.*)["']$""", re.DOTALL)


def strip_any_pair(value: str) -> str:
    trimmed = value.strip()
    found = _ANY_PAIR.match(trimmed)
    return found.group(1).strip() if found else trimmed


class Mutant(ReferenceImplementation):
    name = "semantic-sg_skl_description_any_quote_pair"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(
            super().skill_importer(skills_dir, llm), "strip_wrapping_quotes", strip_any_pair
        )


implementation = Mutant
