"""Hook progress is trimmed with Python's ``str.strip()``: the port's natural reading of the original's
``message.trim()``.  The two disagree at the edges: ``strip()`` keeps a byte-order mark (U+FEFF), which
``trim()`` removes, and removes the information separators U+001C..U+001F and U+0085, which ``trim()``
keeps.  Progress that a hook read from a file starting with a byte-order mark is shown with it, and a
progress line of a lone U+0085 is dropped where the original shows it.

Pattern: white space read by the host language's rule; every example progress is padded with white
space both rules remove (ASCII, U+3000, U+00A0, U+2003).
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookProgress, StopHookProgressMutant

AREAS = ("session", "agent")
PATTERN = "white space read by the host language's rule"


class Executor(StopHookProgress):
    def progress_text(self, message: str) -> str:
        return message.strip()


class Mutant(StopHookProgressMutant):
    name = "semantic-so_hooks_progress_python_strip"
    executor = Executor


implementation = Mutant
