"""A title made from text parts leaves out the empty ones: the port joins
``parts.map(p => p.text).filter(Boolean).join(' ')`` ("skip empty blocks", which streamed replies and
pasted content often hold), where the original joins every text part with a space, an empty one
included.  A first message of ``["Fix", "", "the bug"]`` is titled ``Fix  the bug`` by the original (two
spaces) and ``Fix the bug`` by the port; with many empty parts the 50-character cut falls elsewhere.

Pattern: empty items kept vs dropped in a join; the title examples have no empty text part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.js_text import trim
from tools.mutation.semantic._sa_title import MAX_LENGTH
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "empty items dropped from a join"


def title_from(message: Mapping[str, Any]) -> str | None:
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        texts = (
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
        text = " ".join(t for t in texts if t)
    else:
        return None
    text = trim(text)
    if not text:
        return None
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3] + "..."


class Session(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "title_from", title_from)


class Mutant(SessionMutant):
    name = "semantic-sn_session_title_empty_parts_dropped"
    session_class = Session


implementation = Mutant
