"""A ``command`` of only whitespace is run: the port checks ``if (!command)``, where the original refuses
any command that is empty after trimming (an invalid-usage error that counts towards the
consecutive-failure stop), so ``"   "`` runs as an empty shell script and "succeeds with no output".

Pattern: empty vs blank string; the examples' invalid commands are missing, not strings, or ``""``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("agent",)
PATTERN = "empty string vs blank string"


class Toolset(Delegate):
    def __init__(self, inner: Any, cwd: str) -> None:
        super().__init__(inner)
        self._mut_cwd = cwd

    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        from synapse_ref.agent.bash_tool import _outcome, run_command

        if tool_call.get("name") == "Bash":
            try:
                args = json.loads(str(tool_call.get("arguments") or "{}"))
            except ValueError:
                args = None
            command = args.get("command") if isinstance(args, dict) else None
            if isinstance(command, str) and command and not command.strip():
                return _outcome(command, await run_command(command, self._mut_cwd))
        return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sf_bash_blank_command_runs"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd), cwd)


implementation = Mutant
