"""``/skills`` reads ``$SYNAPSE_HOME`` even when the REPL was given its home: the port resolves the skills
directory as ``process.env.SYNAPSE_HOME ?? options.synapseHome ?? ~/.synapse`` (the environment as an
override, the way command-line tools often treat it), where the home the REPL was started with wins
and the environment is only the fallback for a REPL given none.  A REPL embedded with its own home (a
test harness, a second profile) lists the skills of whatever home the shell exported.

Pattern: precedence between two sources of one value; in every example the environment and the given
home name the same directory, or only one of them is set.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import trim
from tools.mutation.semantic._support import Delegate

AREAS = ("repl",)
PATTERN = "precedence between two sources of one value"


class Commands(Delegate):
    def __init__(self, inner: Any, without_home: Any) -> None:
        super().__init__(inner)
        self._mut_without_home = without_home

    async def handle(self, line: str) -> Any:
        if trim(line).lower() in ("/skills", "/skill:list") and os.environ.get("SYNAPSE_HOME"):
            return await self._mut_without_home.handle(line)
        return await self._inner.handle(line)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_repl_skills_env_over_home"

    def repl_commands(self, **options: Any) -> Any:
        without_home = super().repl_commands(**{**options, "synapse_home": None})
        return Commands(super().repl_commands(**options), without_home)


implementation = Mutant
