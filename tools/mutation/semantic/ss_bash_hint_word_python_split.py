"""The failed command's name in the ``--help`` hint is taken with Python's ``command.split()[0]`` (or
``command.strip().split()``), where the original takes ``command.trim().split(/\\s+/)[0]``.  The two
agree on spaces, tabs and line breaks, but not on the rest of the white space: ``str.split()`` breaks
at U+001C..U+001F and U+0085 and keeps a byte-order mark, JavaScript's ``\\s`` and ``trim()`` do the
opposite.  A command pasted with a leading BOM is hinted as ``\\ufeffprintf --help``, one whose name runs
into U+001F is cut short.

Pattern: white space read the way Python reads it; the examples separate words with ASCII white space
only.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent import bash_tool
from tools.mutation.semantic._support import SwappedCalls

AREAS = ("agent",)
PATTERN = "white space read the way Python reads it"


def python_first_word(command: str) -> str:
    words = command.split()
    return words[0] if words else ""


class Mutant(ReferenceImplementation):
    name = "semantic-ss_bash_hint_word_python_split"

    def bash_toolset(self, cwd: str) -> Any:
        return SwappedCalls(super().bash_toolset(cwd), (bash_tool, "first_word", python_first_word))


implementation = Mutant
