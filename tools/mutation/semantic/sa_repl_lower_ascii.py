"""Commands are lowered with an ASCII-only case map (``c | 0x20`` for ``A``..``Z``, a C port's
``tolower`` in the "C" locale), so the unknown-command line keeps non-ASCII capitals: ``/Ärger`` is
echoed as ``/Ärger`` where the spec lowers the whole command (``/ärger``), as ``toLowerCase`` does.

Pattern: a rule checked only on ASCII: the examples' unknown commands are ASCII words.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "rule checked only on ASCII"
UNKNOWN = "Unknown command: {}\nType /help for available commands."
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        text = line.strip()
        ascii_lowered = text.translate(ASCII_LOWER)
        if text.startswith("/") and ascii_lowered != text.lower() and outcome.output:
            expected = UNKNOWN.format(text.lower())
            if outcome.output == expected:
                return type(outcome)(outcome.handled, UNKNOWN.format(ascii_lowered), outcome.exit)
        return outcome


class Mutant(ReferenceImplementation):
    name = "semantic-sa_repl_lower_ascii"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
