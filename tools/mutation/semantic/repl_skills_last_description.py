"""``/skills`` shows the *last* ``description:`` line of ``SKILL.md``: a line-by-line scan that keeps
overwriting the value, so a ``description:`` line in the body wins over the front matter's.

Pattern: precedence between two sources of one value; only a file with both tells them apart.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "precedence between two sources of one value"
LINE = re.compile(
    r"^[ \t]*(?:\*\*)?description(?:\*\*)?[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE
)


class Commands(Delegate):
    def __init__(self, inner: Any, home: Path | None) -> None:
        super().__init__(inner)
        self._mut_home = home

    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        if line.strip().lower() not in ("/skills", "/skill:list"):
            return outcome
        import os

        home = self._mut_home or Path(os.environ.get("SYNAPSE_HOME") or Path.home() / ".synapse")
        skills = home / "skills"
        text = outcome.output
        if not skills.is_dir():
            return outcome
        for skill in sorted(p for p in skills.iterdir() if (p / "SKILL.md").is_file()):
            body = (skill / "SKILL.md").read_text(encoding="utf-8", errors="replace")
            found = LINE.findall(body)
            first = (found[0].strip("\"'") if found else "") or "(No description)"
            last = (found[-1].strip("\"'") if found else "") or "(No description)"
            text = text.replace(f"  {skill.name}\n    {first}\n", f"  {skill.name}\n    {last}\n", 1)
        return type(outcome)(outcome.handled, text, outcome.exit)


class Mutant(ReferenceImplementation):
    name = "semantic-repl_skills_last_description"

    def repl_commands(self, *, synapse_home: Any = None, **options: Any) -> Any:
        return Commands(super().repl_commands(synapse_home=synapse_home, **options), synapse_home)


implementation = Mutant
