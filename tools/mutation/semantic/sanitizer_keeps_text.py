"""When a tool round is unusable, the sanitizer drops the tool calls but keeps the assistant's text
("the words are still valid"), where the original drops the whole assistant message.

Pattern: an input carrying two things (text and tool calls in one message); examples whose dropped
message has no text cannot tell the rules apart.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer

AREAS = ("agent",)
PATTERN = "input carrying two things rendered by different rules"
BASELINE = "_baseline_sanitizer"


class KeepText(Sanitizer):
    def dropped(self, message: Message) -> list[Message]:
        content = message.get("content")
        texts = (
            [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
            if isinstance(content, list)
            else []
        )
        if isinstance(content, str) and content:
            return [{"role": "assistant", "content": content}]
        return [{"role": "assistant", "content": texts}] if texts else []


class Mutant(ReferenceImplementation):
    name = "semantic-sanitizer_keeps_text"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return KeepText()(messages)


implementation = Mutant
