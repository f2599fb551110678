"""``/skills`` lists every directory of the skills directory that holds a ``SKILL.md``, hidden ones
included: the port reads the entries with ``readdirSync`` and filters on ``SKILL.md`` only, where the
original's skill index skips every name starting with a dot.  The staging copy of an interrupted import
(``.lint-fix.importing``) is listed as a skill next to the real one.

Pattern: two rules agree on the examples (no example skills directory holds a hidden entry).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.repl import commands
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"

_reference = commands.skills_command


def skills_command(skills_dir: Path) -> str:
    lines = ["Available Skills", commands.RULE]
    if not skills_dir.is_dir():
        lines += ["  No skills directory found.", f"  Create skills in: {skills_dir}"]
        return "\n".join(lines)
    try:
        skills = sorted(p for p in skills_dir.iterdir() if (p / "SKILL.md").is_file())
        if not skills:
            lines += ["  No skills installed.", f"  Create skills in: {skills_dir}"]
            return "\n".join(lines)
        for skill in skills:
            description = commands.skill_description(
                (skill / "SKILL.md").read_text(encoding="utf-8", errors="replace")
            )
            versions_dir = skill / "versions"
            versions = (
                sorted(
                    (v.name for v in versions_dir.iterdir() if v.is_dir() and v.name[:1] != "."), reverse=True
                )
                if versions_dir.is_dir()
                else []
            )
            lines += [
                f"  {skill.name}",
                f"    {description or '(No description)'}",
                f"    versions: {', '.join(versions) if versions else '(none)'}",
            ]
    except OSError as error:
        lines.append(f"  Error reading skills: {error}")
    return "\n".join(lines)


@contextlib.contextmanager
def _hidden_listed() -> Iterator[None]:
    commands.skills_command = skills_command
    try:
        yield
    finally:
        commands.skills_command = _reference


class Commands(Delegate):
    async def handle(self, line: str) -> Any:
        with _hidden_listed():
            return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-se_repl_skills_hidden_listed"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options))


implementation = Mutant
