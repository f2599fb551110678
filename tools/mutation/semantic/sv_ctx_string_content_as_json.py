"""A tool message's text is read from its list of parts only, as the original's types have it
(``message.content`` is always a list there); any other content falls through to the branch for a
message without text parts, ``JSON.stringify(message.content)``.  A port that guards against the
original's ``TypeError`` this way offloads a plain-string result as its JSON text: in quotes, with
``\\"``, ``\\\\`` and ``\\n`` escapes, and longer than the text, so a string just under ``minChars`` is
offloaded too.  Every example tool message holds a list of parts.

Pattern: two rules that agree on the easy inputs; no example content is a plain string.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import context_manager
from tools.mutation.semantic._support import SwappedCalls

AREAS = ("context",)
PATTERN = "a plain-string content read as a list of parts"

_message_text = context_manager.message_text


def text_of_parts(message: Any) -> str | None:
    if not isinstance(message.get("content"), list):
        return None
    return _message_text(message)


class Mutant(ReferenceImplementation):
    name = "semantic-sv_ctx_string_content_as_json"

    def context_manager(self, *args: Any, **options: Any) -> Any:
        return SwappedCalls(
            super().context_manager(*args, **options), (context_manager, "message_text", text_of_parts)
        )


implementation = Mutant
