"""Registering a hook name again moves it to the end of the order (delete, then insert), where the
original replaces it in place, as a JavaScript ``Map.set`` does.

Pattern: precedence between two sources of one value; the order only shows with a replaced hook and
another hook registered between the two registrations.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("session", "agent")
PATTERN = "precedence between two sources of one value"


class Registry(Delegate):
    def __init__(self, inner: Any, fresh: Any) -> None:
        super().__init__(inner)
        self._mut_fresh = fresh
        self._mut_hooks: dict[str, Any] = {}

    def register(self, name: str, hook: Any) -> None:
        self._mut_hooks.pop(name, None)
        self._mut_hooks[name] = hook
        # Rebuild the reference registry in this (moved) order.
        rebuilt = self._mut_fresh()
        for key, value in self._mut_hooks.items():
            rebuilt.register(key, value)
        object.__setattr__(self, "_inner", rebuilt)


class Mutant(ReferenceImplementation):
    name = "semantic-hooks_reregister_moves"

    def stop_hook_registry(self) -> Any:
        fresh = super().stop_hook_registry
        return Registry(fresh(), fresh)


implementation = Mutant
