"""A title writes a text part whose text is null as ``null``: the port joins
``parts.map(p => `${p.text}`)`` (a Python port: ``str(part.get("text", ""))``, which gives ``None``), where
the original's ``parts.map(p => p.text).join(' ')`` writes null as nothing.  A first message whose
stream left an empty text part as null (``{"type": "text", "text": null}``) titles the session
``null 修复登录``.

Pattern: two rules agree on the examples; every text part of the examples holds a string.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from synapse_ref.session import session as session_module
from tools.mutation.semantic._support import SessionMutant, SwappedWritesSession

AREAS = ("session",)
PATTERN = "two rules agree on the examples"

_title_from = session_module.title_from


def title_naming_null(message: Mapping[str, Any]) -> str | None:
    content = message.get("content")
    if isinstance(content, list):
        content = [
            {**part, "text": "null"} if isinstance(part, dict) and part.get("text", "") is None else part
            for part in content
        ]
    return _title_from({**message, "content": content})


class Session(SwappedWritesSession):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner, "title_from", title_naming_null)


class Mutant(SessionMutant):
    name = "semantic-sp_session_title_null_text_named"
    session_class = Session


implementation = Mutant
