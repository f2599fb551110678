"""Each native ``{"role": "tool"}`` line becomes a user turn of its own, where the original gathers
consecutive tool lines into one user turn carrying all their results.

Pattern: one event per round; only a round with several tool results (parallel calls) tells a turn per
line from a turn per round.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, turn_like

AREAS = ("reader",)
PATTERN = "one event per round"


def split(turns: Any) -> list[Any]:
    out: list[Any] = []
    for turn in turns:
        raw = getattr(turn, "raw_content", None)
        anthropic = isinstance(raw, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in raw
        )
        results = turn.tool_results or ()
        if turn.role == "user" and len(results) > 1 and not anthropic:
            first = int(turn.id.rsplit("-", 1)[-1]) if turn.id.rsplit("-", 1)[-1].isdigit() else 0
            for number, result in enumerate(results):
                part = raw[number] if isinstance(raw, list) and number < len(raw) else None
                # One turn per line, named after its own line as every other turn is.
                out.append(
                    turn_like(turn, id=f"turn-{first + number}", tool_results=(result,), raw_content=[part])
                )
        else:
            out.append(turn)
    return out


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        return split(self._inner.read(file_path))

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        return split(self._inner.read_truncated(file_path, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-reader_tool_line_per_turn"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
