"""A tool result whose content is ``null`` (or missing) reads as the text ``null``: the port turns any
content that is not a string into JSON (``typeof c === "string" ? c : JSON.stringify(c)``), which is
right for objects and arrays, where the original's reader treats a result without content as empty
text, so ``compact`` shows ``[Result] null`` for a tool that returned nothing.

Pattern: a default applied to a missing value; the examples' results are strings, text parts or objects.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "missing value rendered"


def as_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if (
        isinstance(content, list)
        and content
        and all(isinstance(p, dict) and p.get("type") == "text" for p in content)
    ):
        return "\n".join(str(p.get("text", "")) for p in content)
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


class Reader(Delegate):
    def read(self, file_path: str | Path) -> Any:
        from synapse_ref.skills import conversation_reader

        with swapped(conversation_reader, "_as_text", as_text):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: str | Path, max_chars: int) -> Any:
        from synapse_ref.skills import conversation_reader

        with swapped(conversation_reader, "_as_text", as_text):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-sj_reader_null_result_json"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
