"""The text parts of an agent session's ``tool`` line are concatenated without a separator: the port
reads a tool result's ``[{"type": "text"}]`` content with ``parts.map(p => p.text).join("")``, where
the reader joins them with a newline, as it does for every other text made of parts, so a result sent
in two parts (``"3 passed"``, ``"1 failed"``) reads ``"3 passed1 failed"``.

Pattern: an input carrying two things (two text parts) where every example tool line has one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, ToolResultRecord

AREAS = ("reader",)
PATTERN = "input carrying two things rendered by different rules"


def concatenated(turn: Any) -> Any:
    raw = getattr(turn, "raw_content", None)
    results = turn.tool_results
    if turn.role != "user" or not results or not isinstance(raw, list) or len(raw) != len(results):
        return turn
    if any(isinstance(item, dict) for item in raw):  # an Anthropic-style line, not native tool lines
        return turn
    changed = []
    for item, result in zip(raw, results, strict=True):
        parts = item if isinstance(item, list) else None
        if parts and all(isinstance(p, dict) and p.get("type") == "text" for p in parts):
            changed.append(
                ToolResultRecord(result.tool_use_id, "".join(str(p.get("text", "")) for p in parts))
            )
        else:
            changed.append(result)
    turn.tool_results = tuple(changed)
    return turn


class Reader(Delegate):
    def read(self, file_path: str | Path) -> list[Any]:
        return [concatenated(t) for t in self._inner.read(file_path)]

    def read_truncated(self, file_path: str | Path, max_chars: int) -> list[Any]:
        return [concatenated(t) for t in self._inner.read_truncated(file_path, max_chars)]


class Mutant(ReferenceImplementation):
    name = "semantic-sf_reader_tool_line_parts_concat"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
