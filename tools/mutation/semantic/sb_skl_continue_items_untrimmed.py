"""``--continue=a, b`` passes ``" b"`` to the importer: the port splits the option's value at commas
(``value.split(",")``) and drops empty items but does not trim them, where the original maps
``item.trim()``; the skill ``b`` is then not recognised and goes through the similarity check.

Pattern: whitespace around list items; every example writes its lists without spaces.
"""

from __future__ import annotations

import shlex
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("skills",)
PATTERN = "whitespace around items"


def untrimmed_continue(command: str) -> list[str] | None:
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    items: list[str] = []
    for index, word in enumerate(words):
        if word.startswith("--continue="):
            value = word.removeprefix("--continue=")
        elif word == "--continue" and index + 1 < len(words):
            value = words[index + 1]
        else:
            continue
        items += [item for item in value.split(",") if item.strip()]
    return items


class Manager(Delegate):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._mut_continue: list[str] | None = None

    def import_skills(self, source: str, **options: Any) -> Any:
        if self._mut_continue is not None and list(options.get("continue_skills", ())) == [
            item.strip() for item in self._mut_continue
        ]:
            options = {**options, "continue_skills": tuple(self._mut_continue)}
        return self._inner.import_skills(source, **options)


class Handler(Delegate):
    def __init__(self, inner: Any, manager: Manager) -> None:
        super().__init__(inner)
        self._mut_manager = manager

    def execute(self, command: str) -> Any:
        self._mut_manager._mut_continue = untrimmed_continue(command)
        return self._inner.execute(command)


class Mutant(ReferenceImplementation):
    name = "semantic-sb_skl_continue_items_untrimmed"

    def skill_command_handler(self, manager: Any) -> Any:
        wrapped = Manager(manager)
        return Handler(super().skill_command_handler(wrapped), wrapped)


implementation = Mutant
