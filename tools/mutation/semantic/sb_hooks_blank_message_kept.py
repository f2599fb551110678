"""A stop hook's message made only of whitespace is appended after the ``[StopHook]`` marker: the port
filters the hooks' messages with ``if (result.message)``, so ``"  "`` counts as something to say.

Pattern: empty vs blank; the examples' silent hooks return nothing or an empty string.
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookMessages, StopHookMessagesMutant

AREAS = ("session", "agent")
PATTERN = "empty string vs blank string"


class Executor(StopHookMessages):
    def kept(self, message: str) -> bool:
        return bool(message)


class Mutant(StopHookMessagesMutant):
    name = "semantic-sb_hooks_blank_message_kept"
    executor = Executor


implementation = Mutant
