"""A hook's progress text is trimmed of ASCII white space only (``strip(" \\t\\r\\n")``, a byte-wise
trim), where the original's ``trim()`` removes every Unicode white space: progress padded with
ideographic or no-break spaces keeps them inside the newlines, and a progress of such spaces alone is
shown as a blank part instead of not at all.

Pattern: white space handled for ASCII only; the example progress texts are padded with ASCII spaces.
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookProgress, StopHookProgressMutant

AREAS = ("session", "agent")
PATTERN = "white space handled for ASCII only"

ASCII_SPACE = " \t\r\n\f\v"


class Executor(StopHookProgress):
    def progress_text(self, message: str) -> str:
        return message.strip(ASCII_SPACE)


class Mutant(StopHookProgressMutant):
    name = "semantic-sg_hooks_progress_trim_ascii"
    executor = Executor


implementation = Mutant
