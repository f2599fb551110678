"""A hook's progress message is shown as given: the port checks ``message.length > 0`` instead of
trimming, so a whitespace-only progress message is shown as a blank part and a padded one keeps its
padding inside the newlines.

Pattern: trimming skipped where the examples carry no surrounding whitespace.
"""

from __future__ import annotations

from tools.mutation.semantic._support import StopHookProgress, StopHookProgressMutant

AREAS = ("session", "agent")
PATTERN = "whitespace kept around a value"


class Executor(StopHookProgress):
    def progress_text(self, message: str) -> str:
        return message


class Mutant(StopHookProgressMutant):
    name = "semantic-sc_hooks_progress_untrimmed"
    executor = Executor


implementation = Mutant
