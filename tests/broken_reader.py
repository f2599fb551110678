"""A deliberately broken implementation: the reference, except that ``read_truncated`` parses the partial line
at the start of its window instead of dropping it.

Used by ``tests/test_broken_implementation.py`` (``--synapse-impl=tests.broken_reader``) to show that the
reader features fail an implementation that breaks one of their rules, and say why.
"""

from __future__ import annotations

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.conversation_reader import ConversationReader
from synapse_spec import contract


class MidLineConversationReader(ConversationReader):
    """Keeps the window exactly ``max_chars`` long, so a cut inside a line yields a half JSON line."""

    @staticmethod
    def _align_to_line(window: str, starts_mid_line: bool) -> str:
        return window


class BrokenReaderImplementation(ReferenceImplementation):
    name = "broken-reader"

    def conversation_reader(self) -> contract.ConversationReader:
        return MidLineConversationReader()


def implementation() -> BrokenReaderImplementation:
    return BrokenReaderImplementation()
