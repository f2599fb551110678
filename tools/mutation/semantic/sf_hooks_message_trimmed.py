"""Each stop hook's message is trimmed before it is appended: the port tidies ``message.trim()`` where
the original filters on the trimmed text but appends the message as the hook wrote it, so a hook's
report that ends with a newline (or is indented) loses it.

Pattern: a rule (trim) applied to the value where it was meant for the test only; every example hook
message has no surrounding whitespace.
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookMessages, StopHookMessagesMutant

AREAS = ("session", "agent")
PATTERN = "rule applied to the value instead of the test"


class Executor(StopHookMessages):
    def shown(self, message: str) -> str:
        return message.strip()


class Mutant(StopHookMessagesMutant):
    name = "semantic-sf_hooks_message_trimmed"
    executor = Executor


implementation = Mutant
