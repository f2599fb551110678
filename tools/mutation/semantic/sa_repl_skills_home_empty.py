"""Without an injected home, ``/skills`` takes ``SYNAPSE_HOME`` whenever the variable exists
(``process.env.SYNAPSE_HOME ?? join(homedir(), ".synapse")``, where the original writes ``||``): an
empty ``SYNAPSE_HOME`` makes the skills directory ``skills`` relative to the working directory instead
of ``~/.synapse/skills``.

Pattern: empty-string vs missing environment variable; the examples set it to a directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("repl",)
PATTERN = "empty vs missing environment variable"


class Mutant(ReferenceImplementation):
    name = "semantic-sa_repl_skills_home_empty"

    def repl_commands(self, *, synapse_home: Any = None, **options: Any) -> Any:
        if synapse_home is None and os.environ.get("SYNAPSE_HOME") == "":
            synapse_home = Path("")
        return super().repl_commands(synapse_home=synapse_home, **options)


implementation = Mutant
