"""``/skills`` lists every entry of a skill's ``versions/`` directory as a version, files included: the
port reads the names with ``fs.readdirSync(dir)`` (``os.listdir``, ``Files.list``) and drops the
``withFileTypes`` / ``isDirectory()`` filter of the original, so a ``README.md`` or an archive left next
to the version directories shows up as a version.

Pattern: two rules agree on the examples: every example's ``versions/`` holds directories only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.session.paths import synapse_home
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "two rules agree on the examples"
VERSIONS = "    versions: "


def relisted(text: str, skills_dir: Path) -> str:
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if not line.startswith(VERSIONS) or number < 2 or not lines[number - 2].startswith("  "):
            continue
        versions = skills_dir / lines[number - 2].strip() / "versions"
        try:
            names = sorted(os.listdir(versions), reverse=True)
        except OSError:
            continue
        lines[number] = VERSIONS + (", ".join(names) if names else "(none)")
    return "\n".join(lines)


class Commands(Delegate):
    def __init__(self, inner: Any, home: Any) -> None:
        super().__init__(inner)
        self._mut_home = home

    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        if line.strip().lower() not in ("/skills", "/skill:list") or not outcome.output:
            return outcome
        home = Path(self._mut_home) if self._mut_home is not None else synapse_home()
        text = relisted(outcome.output, home / "skills")
        return type(outcome)(outcome.handled, text, outcome.exit)


class Mutant(ReferenceImplementation):
    name = "semantic-sd_repl_versions_any_entry"

    def repl_commands(self, **options: Any) -> Any:
        return Commands(super().repl_commands(**options), options.get("synapse_home"))


implementation = Mutant
