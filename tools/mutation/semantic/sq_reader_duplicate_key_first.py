"""A key written twice in a transcript line is read at its first occurrence: the port pulls the fields
it needs out of each line with a path query (Go's ``gjson.Get(line, "role")``, a streaming scanner that
stops at the first match) instead of parsing the whole object, where the original's ``JSON.parse``
keeps the last value of a repeated key.  A line rewritten by a tool that appends corrected fields
(``..., "role": "user"`` after an earlier ``"role": "assistant"``) then keeps its stale role, id,
content or tool calls.

Pattern: first against last; no example line repeats a key.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, value in pairs:
        kept.setdefault(key, value)
    return kept


AREAS = ("reader",)
PATTERN = "first against last"


def _line(raw: str) -> str:
    try:
        data = json.loads(raw, object_pairs_hook=_first_wins)
    except (ValueError, RecursionError):
        return raw
    return json.dumps(data) if isinstance(data, dict) else raw


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        path = Path(file_path)
        if not path.is_file():
            return self._inner.read(file_path)
        text = path.read_bytes().decode("utf-8", errors="replace")
        lines = [_line(raw) for raw in text.split("\n")]
        with tempfile.TemporaryDirectory() as folder:
            rewritten = Path(folder) / path.name
            rewritten.write_text("\n".join(lines), encoding="utf-8")
            return self._inner.read(rewritten)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_duplicate_key_first"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
