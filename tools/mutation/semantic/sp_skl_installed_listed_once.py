"""The installed skills offered to the similarity check are listed once per import: the port reads
them before its loop (``const installed = await listInstalled()`` hoisted out of the ``for``), where the
original lists them again for every source skill, so a skill the same import has just installed is
one the next skill can resemble.  Importing two overlapping skills at once installs both without a
word, and into an empty skills directory the second is not even checked.

Pattern: state kept across the iterations of one call; every example importing several skills has
none imported before the last similarity check, or checks one skill only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OptionsImporter

AREAS = ("skills",)
PATTERN = "state kept across iterations"


class Importer(OptionsImporter):
    @contextlib.contextmanager
    def importing(self) -> Iterator[None]:
        inner = self._inner
        try:
            listed = inner._installed()
        except OSError:  # no skills directory yet: the import creates it
            listed = []
        inner._installed = lambda: listed  # an instance attribute shadows the method for this import
        try:
            yield
        finally:
            del inner._installed


class Mutant(ReferenceImplementation):
    name = "semantic-sp_skl_installed_listed_once"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return Importer(super().skill_importer(skills_dir, llm))


implementation = Mutant
