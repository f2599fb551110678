"""A blocked result whose ``extras.resource`` is the empty string gets the ``unknown-resource`` default:
the port writes ``extras.resource || "unknown-resource"`` where the original takes any string as it is
(``typeof resource === "string"``), so "allow for the session" then whitelists ``.`` (the directory of
``unknown-resource``) instead of nothing.

Pattern: a default applied to a falsy value (``x || default``); the examples' bad resources are not
strings at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "default applied when the value is falsy"


class Toolset(Delegate):
    async def handle(self, tool_call: Mapping[str, Any]) -> Any:
        result = await self._inner.handle(tool_call)
        extras = getattr(result, "extras", None) or {}
        if extras.get("type") == "sandbox_blocked" and extras.get("resource") == "":
            return replace_record(result, extras={**extras, "resource": "unknown-resource"})
        return result


class Mutant(ReferenceImplementation):
    name = "semantic-sf_sandbox_empty_resource_default"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return super().agent_runner(llm, Toolset(toolset), **options)


implementation = Mutant
