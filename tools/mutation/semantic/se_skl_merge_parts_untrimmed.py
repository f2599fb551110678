"""The names of a ``--merge`` item are not trimmed: the port trims the comma-separated items, then splits
each at its colon and keeps both halves as they are (``const [source, target] = item.split(":")``
without the original's ``source.trim()`` / ``target.trim()``), so ``commit-helper : git-commit`` asks to
merge ``"commit-helper "`` into ``" git-commit"``, names no installed skill, and the merge is skipped.

Pattern: whitespace around a value (inside an item, where the examples only have it around items).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import import_command
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("skills",)
PATTERN = "whitespace around a value"

_reference = import_command.parse_import_arguments


def _merge_values(args: Sequence[str]) -> list[str]:
    values, index = [], 0
    while index < len(args):
        option, has_value, value = args[index].partition("=")
        index += 1
        if option == "--merge":
            if not has_value and index < len(args):
                value, index = args[index], index + 1
            values.append(value)
    return values


def parse_import_arguments(args: Sequence[str]) -> Any:
    request = _reference(args)
    if request.help or not request.merge_into:
        return request
    pairs = []
    for value in _merge_values(args):
        for item in (i.strip() for i in value.split(",")):
            if item:
                skill, _, target = item.partition(":")
                pairs.append((skill, target))
    return replace(request, merge_into=tuple(pairs))


class Handler(Delegate):
    def execute(self, command: str) -> Any:
        with swapped(import_command, "parse_import_arguments", parse_import_arguments):
            return self._inner.execute(command)


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_merge_parts_untrimmed"

    def skill_command_handler(self, manager: Any) -> Any:
        return Handler(super().skill_command_handler(manager))


implementation = Mutant
