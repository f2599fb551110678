"""The toolset parses a tool call's arguments with a lenient JSON reader: the port decodes them with
``json.loads`` (or a decoder that allows NaN), so ``{"command": "ls", "timeout": NaN}`` runs ``ls``
where the original's ``JSON.parse`` refuses the text and answers with the invalid-parameters error the
model can correct.  The history sanitizer of the same port then drops the call as malformed before the
next step, so the command ran although no trace of it is left for the model.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); the examples of
arguments that are no JSON are all plainly broken text.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.agent import bash_tool
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "JSON.parse against json.loads"


class Toolset(Delegate):
    async def handle(self, tool_call: Any) -> Any:
        with swapped(bash_tool, "json_parse", json.loads):
            return await self._inner.handle(tool_call)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_bash_args_python_json"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
