"""A turn's content is its *first* text block: the port looks the text up with
``blocks.find(b => b.type === "text")`` (``next(...)``, ``.first { }``), where the original gathers every
non-empty text block and joins them with newlines. An assistant message that says something, calls a
tool, and then says more loses the later text in ``compact`` and in the skill generated from it.

Pattern: an input carrying two things; every example message holds one non-empty text block.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, turn_like

AREAS = ("reader",)
PATTERN = "input carrying two things"


def first_text(turns: Any) -> list[Any]:
    out: list[Any] = []
    for turn in turns:
        raw = getattr(turn, "raw_content", None)
        blocks = raw if isinstance(raw, list) else []
        texts = [b.get("text") for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
        texts = [t for t in texts if isinstance(t, str) and t]
        out.append(turn_like(turn, content=texts[0]) if len(texts) > 1 else turn)
    return out


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        return first_text(self._inner.read(file_path))

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        return first_text(self._inner.read_truncated(file_path, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-sd_reader_first_text_block"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
