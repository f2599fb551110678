"""The merge reply is trimmed with the language's own ``strip()`` (Python's ``str.strip``, Go's
``strings.TrimSpace``), where the TypeScript port this spec follows trims with JavaScript's ``trim()``:
the two agree on spaces, tabs, newlines and the no-break space, but only JavaScript counts the
byte-order mark U+FEFF as white space.  A model answering a byte-order mark and a blank line (a reply
streamed from a file, a proxy that prepends the mark) has returned no merge to the original's reading,
and the skill is skipped; the port finds one character of text and replaces the target's ``SKILL.md`` with
a file holding nothing but the mark, losing the skill's definition (its old files go to ``versions/``).

Pattern: JavaScript against Python readings (trim's white space set); the blank reply of the examples
is made of ASCII white space, which every trim removes.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import SwappedImporter

AREAS = ("skills",)
PATTERN = "JavaScript against Python readings"


def python_strip(text: str) -> str:
    return text.strip()


class Mutant(ReferenceImplementation):
    name = "semantic-sr_skl_merge_reply_python_strip"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return SwappedImporter(super().skill_importer(skills_dir, llm), "trim", python_strip)


implementation = Mutant
