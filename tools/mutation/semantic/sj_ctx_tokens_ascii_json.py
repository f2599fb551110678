"""Messages are counted as JSON with every non-ASCII character escaped: the port serialises a message
with its language's default encoder (Python's ``json.dumps(..., separators=(",", ":"))`` keeps
``ensure_ascii=True``, Go's ``json.Marshal`` escapes ``<``/``>``/``&`` likewise), where the original
counts ``JSON.stringify``'s text, which keeps CJK and emoji as they are: a Chinese history is counted at
several times its tokens, so offload and compaction start far too early.

Pattern: a length checked only on ASCII; histories of English text serialise the same either way.
"""

from __future__ import annotations

import json
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.token_counter import default_token_counter
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "length checked only on ASCII"

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _escaped(match: re.Match[str]) -> str:
    return json.dumps(match.group())[1:-1]


class AsciiCounter(Delegate):
    """Counts the text the port's encoder writes: the same JSON with non-ASCII characters escaped."""

    def count_tokens(self, text: str) -> int:
        return int(self._inner.count_tokens(_NON_ASCII.sub(_escaped, text)))


def ascii_counter(counter: Any) -> Any:
    return AsciiCounter(counter if counter is not None else default_token_counter())


class Mutant(ReferenceImplementation):
    name = "semantic-sj_ctx_tokens_ascii_json"

    def context_manager(self, storage: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_manager(storage, token_counter=ascii_counter(token_counter), **options)

    def context_compactor(self, storage: Any, llm: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_compactor(storage, llm, token_counter=ascii_counter(token_counter), **options)

    def context_orchestrator(self, llm: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_orchestrator(llm, token_counter=ascii_counter(token_counter), **options)


implementation = Mutant
