"""The title's 50-character limit counts what the user sees, grapheme clusters: the port is written in a
language whose string length is the number of grapheme clusters (Swift's ``String.count``, Elixir's
``String.length``) or reaches for ``Intl.Segmenter`` to be kind to emoji, where the contract counts code
points.  Text in decomposed form (a title pasted from a macOS file name, where ``é`` is ``e`` and the
combining acute U+0301) has more code points than clusters: 45 letters and four decomposed ``é`` are 53
code points, cut to 47 and ``...``, but only 49 clusters, kept whole by the port.

Pattern: a length limit read in another unit (graphemes against code points); every example's
characters are one code point each, where the two units agree.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from synapse_ref.js_text import trim
from synapse_ref.session import session as session_module
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "length limit in another unit"

MAX_LENGTH = 50
ZWJ = "\u200d"
reference_title = session_module.title_from


def _extends(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.combining(char) != 0
        or unicodedata.category(char) in ("Mn", "Me")
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
    )


def clusters(text: str) -> list[str]:
    found: list[str] = []
    joined = False
    for char in text:
        if found and (joined or char == ZWJ or _extends(char)):
            found[-1] += char
        else:
            found.append(char)
        joined = char == ZWJ
    return found


def title_from(message: Mapping[str, Any]) -> str | None:
    if reference_title(message) is None:  # no text: no title, as the contract says
        return None
    content = message.get("content")
    if isinstance(content, str):
        text = content
    else:
        assert isinstance(content, list)  # the reference titles only strings and lists of parts
        text = " ".join(
            "" if part.get("text") is None else str(part["text"])
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    seen = clusters(trim(text))
    return "".join(seen) if len(seen) <= MAX_LENGTH else "".join(seen[: MAX_LENGTH - 3]) + "..."


class GraphemeSession(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "title_from", title_from)


class Mutant(SessionMutant):
    name = "semantic-sr_session_title_graphemes"
    session_class = GraphemeSession


implementation = Mutant
