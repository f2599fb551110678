"""``handle(line)`` trims only ASCII blanks before dispatching, where the spec trims whitespace (as
JavaScript's ``trim()`` does): a command typed with a Chinese input method, led or followed by an
ideographic space (U+3000), is sent to the model, or is an unknown command.

Pattern: a rule checked only on ASCII: the examples pad commands with ordinary spaces.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "rule checked only on ASCII"
UNKNOWN = "Unknown command: {}\nType /help for available commands."


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        text = line.strip(" \t\r\n\f\v")
        if text == line.strip():
            return await self._inner.handle(line)
        if not text.startswith("/"):
            return await self._inner.handle("")  # not a command: goes to the model
        outcome = await self._inner.handle("/help")
        return type(outcome)(True, UNKNOWN.format(text.lower()))


class Mutant(ReferenceImplementation):
    name = "semantic-sa_repl_trim_ascii"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
