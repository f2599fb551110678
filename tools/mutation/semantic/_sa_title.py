"""Shared by the ``sa_session_title_*`` mutants: sessions whose title comes from a replaced rule."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from tools.mutation.semantic._support import Delegate, SessionMutant

TitleRule = Callable[[str], "str | None"]
MAX_LENGTH = 50


def message_text(message: Mapping[str, Any]) -> str | None:
    """The text a title is made from: a string content, or the text parts joined by a space."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return None


@contextmanager
def title_rule(rule: TitleRule) -> Iterator[None]:
    """Make the session module build titles with ``rule`` for the duration of one call."""
    from synapse_ref.session import session as module

    def title_from(message: Mapping[str, Any]) -> str | None:
        text = message_text(message)
        return None if text is None else rule(text)

    saved = module.title_from
    module.title_from = title_from
    try:
        yield
    finally:
        module.title_from = saved


class TitledSession(Delegate):
    """A session whose writes (the only places a title is made) use the mutant's rule."""

    def __init__(self, inner: Any, rule: TitleRule) -> None:
        super().__init__(inner)
        self._mut_rule = rule

    def append_message(self, message_or_list: Any) -> None:
        with title_rule(self._mut_rule):
            self._inner.append_message(message_or_list)

    def rewrite_history(self, messages: Any) -> None:
        with title_rule(self._mut_rule):
            self._inner.rewrite_history(messages)


class TitleMutant(SessionMutant):
    """Wraps every session the implementation hands out."""

    @staticmethod
    def rule(text: str) -> str | None:
        raise NotImplementedError

    def wrap_session(self, session: Any) -> Any:
        return TitledSession(session, self.rule) if session is not None else None
