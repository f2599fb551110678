"""The Bash tool's output loses its trailing newlines: the port returns ``stdout.trimEnd()`` to tidy what
the model sees, where the original passes the command's output on unchanged, so ``printf 'a\\n\\n'`` and
``printf a`` give the model the same text.

Pattern: a trailing newline; every example output either has none or is compared with ``contains``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "trailing newline"


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        result = await self._inner.handle(tool_call)
        output = getattr(result, "output", None)
        if getattr(result, "is_error", False) or not isinstance(output, str):
            return result
        return replace_record(result, output=output.rstrip("\n"))


class Mutant(ReferenceImplementation):
    name = "semantic-sc_bash_output_rstrip"

    def bash_toolset(self, cwd: str) -> Any:
        return Toolset(super().bash_toolset(cwd))


implementation = Mutant
