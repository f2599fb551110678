"""A hook's message counts as blank only when it holds ASCII white space: the port tests
``message.strip(" \\t\\r\\n")`` (C's ``isspace``, a byte-wise trim), where the original's ``trim()`` removes
every Unicode white space, so a message of ideographic or no-break spaces is appended after the marker
as if the hook had reported something.

Pattern: white space handled for ASCII only; every blank example message is made of ASCII spaces.
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookMessages, StopHookMessagesMutant

AREAS = ("session", "agent")
PATTERN = "white space handled for ASCII only"

ASCII_SPACE = " \t\r\n\f\v"


class Executor(StopHookMessages):
    def kept(self, message: str) -> bool:
        return bool(message.strip(ASCII_SPACE))


class Mutant(StopHookMessagesMutant):
    name = "semantic-sg_hooks_blank_ascii_only"
    executor = Executor


implementation = Mutant
