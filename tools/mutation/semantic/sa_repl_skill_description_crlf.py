"""``/skills`` reads ``SKILL.md`` without translating line endings (``fs.readFileSync(path, "utf-8")`` and
the same ``description:`` pattern), and removes the one pair of wrapping quotes without trimming the
value first, since the pattern already drops the blanks and tabs around it: a file saved with CRLF line
endings keeps a ``\r`` at the end of the value, so a quoted description keeps both quotes, the closing
one no longer being last.

Pattern: CRLF line endings; every example writes its files with ``\n``, and a bare ``\r`` at the
end of a line is invisible on a terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "CRLF line endings"


def raw_description(skill_md: Path) -> str | None:
    from synapse_ref.repl.commands import _DESCRIPTION_LINE

    try:
        with open(skill_md, encoding="utf-8", errors="replace", newline="") as handle:
            found = _DESCRIPTION_LINE.search(handle.read())
    except OSError:
        return None
    value = found.group(1) if found else ""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1].strip()
    return value or None


def with_raw_descriptions(output: str, skills_dir: Path) -> str:
    lines = output.split("\n")
    for index, line in enumerate(lines[:-1]):
        name = line[2:]
        if (
            not line.startswith("  ")
            or line.startswith("   ")
            or not (skills_dir / name / "SKILL.md").is_file()
        ):
            continue
        description = raw_description(skills_dir / name / "SKILL.md")
        lines[index + 1] = f"    {description or '(No description)'}"
    return "\n".join(lines)


class Commands(Delegate):
    def __init__(self, inner: Any, home: Path | None) -> None:
        super().__init__(inner)
        self._mut_home = home

    async def handle(self, line: str) -> Any:
        outcome = await self._inner.handle(line)
        if line.strip().lower() not in ("/skills", "/skill:list") or not outcome.output:
            return outcome
        from synapse_ref.session.paths import synapse_home

        home = self._mut_home if self._mut_home is not None else synapse_home()
        text = with_raw_descriptions(outcome.output, Path(home) / "skills")
        return type(outcome)(outcome.handled, text, outcome.exit)


class Mutant(ReferenceImplementation):
    name = "semantic-sa_repl_skill_description_crlf"

    def repl_commands(self, *, synapse_home: Any = None, **options: Any) -> Any:
        return Commands(super().repl_commands(synapse_home=synapse_home, **options), synapse_home)


implementation = Mutant
