"""Messages are counted as the JSON text of an encoder that escapes ``<``, ``>`` and ``&`` (and U+2028,
U+2029): Go's ``json.Marshal`` and Java's Gson do so by default to make JSON safe inside HTML, so a port
that serialises each message with them counts ``&&`` as twelve characters where ``JSON.stringify`` (the
original) writes two.  Shell commands and their output are full of ``&&``, ``2>&1`` and ``<file``: such
a history reaches the offload threshold early, and ``previousTokens`` and ``freedTokens`` are off.

Pattern: characters only some encoders escape; no example history holds ``<``, ``>`` or ``&`` where its
tokens are checked.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.token_counter import default_token_counter
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "characters only some encoders escape"

_HTML_UNSAFE = re.compile("[<>&\u2028\u2029]")


class HtmlSafeCounter(Delegate):
    """Counts the text the port's encoder writes: the same JSON with ``\\u003c`` for ``<`` and so on."""

    def count_tokens(self, text: str) -> int:
        return int(self._inner.count_tokens(_HTML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)))


def html_safe_counter(counter: Any) -> Any:
    return HtmlSafeCounter(counter if counter is not None else default_token_counter())


class Mutant(ReferenceImplementation):
    name = "semantic-so_ctx_tokens_html_escaped"

    def context_manager(self, storage: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_manager(storage, token_counter=html_safe_counter(token_counter), **options)

    def context_compactor(self, storage: Any, llm: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_compactor(
            storage, llm, token_counter=html_safe_counter(token_counter), **options
        )

    def context_orchestrator(self, llm: Any, *, token_counter: Any = None, **options: Any) -> Any:
        return super().context_orchestrator(llm, token_counter=html_safe_counter(token_counter), **options)


implementation = Mutant
