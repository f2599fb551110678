"""An assistant line whose content is plain text loses its ``toolCalls``: the port takes the shortcut
"string content: a plain text turn" (``if (typeof content === 'string') return { role, content }``)
before it looks at the native ``toolCalls``, where the rule reads the calls of every assistant line,
whatever the shape of its content.  A Synapse session written with text content (``"content": "Let me
check."``, as some providers' replies are stored) shows no ``[Tool]`` lines, an empty tool sequence and
a tool count of 0.

Pattern: input carrying two things rendered by different rules; every example line with ``toolCalls``
holds its text as a list of parts.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.conversation_reader import ConversationReader, ConversationTurn, _Line

AREAS = ("reader",)
PATTERN = "input carrying two things rendered by different rules"


class TextLineReader(ConversationReader):
    def _turn(self, line: _Line, role: str, number: int) -> ConversationTurn:
        if type(line.content) is str and line.toolCalls is not None:
            line = _Line(line.role, line.id, line.content, None, line.toolCallId)
        return super()._turn(line, role, number)


class Mutant(ReferenceImplementation):
    name = "semantic-sn_reader_text_line_calls_dropped"

    def conversation_reader(self) -> Any:
        return TextLineReader()


implementation = Mutant
