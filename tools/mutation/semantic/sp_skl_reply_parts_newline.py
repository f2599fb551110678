"""The importer joins the text parts of the model's reply with newlines: the port reuses its message
helper ``parts.filter(isText).map(p => p.text).join('\n')`` (the one that renders a history), where the
original takes the reply as the one text its sub-agent returns, the parts put together as they came.  A
merged ``SKILL.md`` that a provider streamed in two parts gets a blank line where the parts meet (after
the front matter, inside a sentence or a code block).

Pattern: an input carrying two things; every scripted reply of the examples is one text part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "input carrying two things"


def text_joined_by_newlines(message: Mapping[str, Any]) -> str:
    return "\n".join(
        str(part.get("text", ""))
        for part in message.get("content", [])
        if isinstance(part, dict) and part.get("type") == "text"
    )


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_reply_parts_newline"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "_text_of", text_joined_by_newlines)


implementation = Mutant
