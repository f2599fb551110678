"""The directory allowed for a blocked resource is cut at its last slash: the port writes
``resource.slice(0, resource.lastIndexOf("/")) || "."`` instead of calling ``path.dirname``, which
agrees for every nested path, but a resource in the root directory (``/netrc``) gives ``""`` and so
``.``: "allow for this session" whitelists the working directory instead of ``/``, and the retried
command is blocked again.

Pattern: two rules that agree on the examples; every example resource is nested, relative, a directory
or empty, none lies directly under ``/``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("agent",)
PATTERN = "two rules agree on the examples"


def directory_before_last_slash(resource: str) -> str:
    if not resource or resource.endswith("/"):
        return resource
    cut = resource.rfind("/")
    return "." if cut < 0 else resource[:cut] or "."


class Runner(Delegate):
    async def resolve_sandbox_permission(self, option: str) -> str:
        from synapse_ref.agent import sandbox

        with swapped(sandbox, "whitelist_path", directory_before_last_slash):
            return str(await self._inner.resolve_sandbox_permission(option))


class Mutant(ReferenceImplementation):
    name = "semantic-sj_sandbox_dir_by_last_slash"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return Runner(super().agent_runner(llm, toolset, **options))


implementation = Mutant
