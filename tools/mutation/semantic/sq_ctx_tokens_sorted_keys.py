"""Messages are counted as JSON with their keys sorted: the port serialises a message through its
language's generic JSON value, which orders object keys (Go's ``json.Marshal`` of a
``map[string]any``, Rust's ``serde_json::Value`` without ``preserve_order``, Python's
``sort_keys=True``), where the original counts ``JSON.stringify(message)``, keys in the order they
were written (``role``, ``content``, then ``toolCalls`` or ``toolCallId``).  The characters are the
same, so a counter of characters agrees; the tokens of the cl100k encoding differ wherever a text
ends in a character that merges with what follows it: ``hello.`` then ``"}]`` against ``","type"``.

Pattern: two rules that agree on the examples (every exact count is taken with a counter of
characters, or on texts whose last token does not merge).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import orjson

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import token_counter
from tools.mutation.semantic._support import SwappedCalls

AREAS = ("context", "agent")
PATTERN = "two rules agree on the examples"


def _sorted_dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


SORTED_JSON = SimpleNamespace(dumps=_sorted_dumps)


def _sorted(component: Any) -> Any:
    """A component every call of which counts messages with the port's serialiser."""
    return SwappedCalls(component, (token_counter, "orjson", SORTED_JSON))


class Mutant(ReferenceImplementation):
    name = "semantic-sq_ctx_tokens_sorted_keys"

    def context_manager(self, *args: Any, **options: Any) -> Any:
        return _sorted(super().context_manager(*args, **options))

    def context_compactor(self, *args: Any, **options: Any) -> Any:
        return _sorted(super().context_compactor(*args, **options))

    def context_orchestrator(self, *args: Any, **options: Any) -> Any:
        return _sorted(super().context_orchestrator(*args, **options))

    def agent_runner(self, *args: Any, **options: Any) -> Any:
        return _sorted(super().agent_runner(*args, **options))


implementation = Mutant
