"""A title made from a message whose content is a list of parts joins the text parts with nothing
between them (``parts.map(p => p.text).join("")``, the way the skill importer reads a model's reply),
where the title joins them with a space: a first message sent as two text parts, ``Fix the`` and
``login bug``, is titled ``Fix thelogin bug``.

Pattern: input carrying two things rendered by different rules (the same list of parts is joined one way
for a reply and another way for a title); the title examples have a single text part.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tools.mutation.semantic._sa_title import MAX_LENGTH
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "input carrying two things rendered by different rules"


def title_from(message: Mapping[str, Any]) -> str | None:
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    else:
        return None
    text = text.strip()
    if not text:
        return None
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3] + "..."


class JoinedSession(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "title_from", title_from)


class Mutant(SessionMutant):
    name = "semantic-se_session_title_parts_joined"
    session_class = JoinedSession


implementation = Mutant
