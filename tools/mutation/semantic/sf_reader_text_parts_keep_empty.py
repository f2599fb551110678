"""A turn's text blocks are joined with their empty ones kept: the port maps every ``text`` block to its
``text`` and joins them with ``"\\n"``, where the original keeps only the blocks with some text
(``if (block.text)``), so ``[{"text": ""}, {"text": "Done."}]`` reads as ``"\\nDone."``.

Pattern: empty vs missing; every example text block has some text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "empty vs missing"


def joined(turn: Any) -> Any:
    raw = getattr(turn, "raw_content", None)
    if not isinstance(raw, list):
        return turn
    texts = [
        b["text"]
        for b in raw
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    if len(texts) < 2 or all(texts):
        return turn
    turn.content = "\n".join(texts)
    return turn


class Reader(Delegate):
    def read(self, file_path: str | Path) -> list[Any]:
        return [joined(t) for t in self._inner.read(file_path)]

    def read_truncated(self, file_path: str | Path, max_chars: int) -> list[Any]:
        return [joined(t) for t in self._inner.read_truncated(file_path, max_chars)]


class Mutant(ReferenceImplementation):
    name = "semantic-sf_reader_text_parts_keep_empty"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
