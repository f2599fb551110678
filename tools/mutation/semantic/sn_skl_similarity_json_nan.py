"""The similarity answer is read with the host language's JSON parser, which takes ``NaN`` and
``Infinity`` (Python's ``json.loads``, a lenient JSON5 reader), where the original's ``JSON.parse``
refuses them: an answer like ``{"similar": [{"name": "git-commit", "reason": "...", "score": NaN}]}``
is unreadable to the original, which imports the skill with a warning, and a resemblance to the port,
which holds the skill back as similar.  (The reference itself read it so; SKL-089 pins the original.)

Pattern: a text read by another language's rules; every example answer is strict JSON or prose.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "a text read by another language's rules"


class Mutant(ReferenceImplementation):
    name = "semantic-sn_skl_similarity_json_nan"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "json_parse", json.loads)


implementation = Mutant
