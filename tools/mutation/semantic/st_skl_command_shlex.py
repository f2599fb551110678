"""``skill:import`` splits its command line with the platform's shell-word splitter (Python's
``shlex.split``, a POSIX shell's rules), which the original's own parser resembles: both split at blanks,
group words in quotes and report an unclosed quote.  Outside quotes, though, ``shlex`` takes a backslash as
an escape and drops it, where the original's ``parseCommandArgs`` keeps it as a character: a Windows path
``C:\\Users\\dev\\skills`` reaches the importer as ``C:Usersdevskills``, and a UNC path loses its leading
separators.  (The reference itself split so; SKL-096 pins the original's reading.)

Pattern: a command read by a Python library's rules; every example path is a POSIX path.
"""

from __future__ import annotations

import shlex
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import import_command
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("skills",)
PATTERN = "a command read by a Python library's rules"


class Handler(Delegate):
    def execute(self, command: str) -> Any:
        with swapped(import_command, "split_command_args", shlex.split):
            return self._inner.execute(command)


class Mutant(ReferenceImplementation):
    name = "semantic-st_skl_command_shlex"

    def skill_command_handler(self, manager: Any) -> Any:
        return Handler(super().skill_command_handler(manager))


implementation = Mutant
