"""``compact`` renders a user turn that carries tool results *and* text as both a ``[User]`` block and its
``[Result]`` blocks; the original shows only the results for such a turn.

Pattern: an input carrying two things rendered by different rules: a renderer that prints both is only
caught by a turn holding both.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, turn_like

AREAS = ("reader",)
PATTERN = "input carrying two things rendered by different rules"


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        shown = []
        for turn in turns:
            if turn.role == "user" and turn.tool_results and turn.content:
                shown.append(turn_like(turn, tool_results=None))
            shown.append(turn)
        return str(self._inner.compact(shown, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-reader_user_text_with_results"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
