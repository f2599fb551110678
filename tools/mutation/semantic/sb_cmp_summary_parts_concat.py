"""The summary of a compaction joins the text parts of the model's reply with nothing between them
(``parts.map(p => p.text).join("")``), where the original puts a newline between two parts: a reply
streamed as several text blocks runs its paragraphs together.

Pattern: an input carrying two things rendered by different rules; every example reply has one part.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("context",)
PATTERN = "input carrying two things"


def one_part(message: Any) -> Any:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return message
    texts = [p for p in content if isinstance(p, dict) and p.get("type") == "text" and "text" in p]
    if len(texts) < 2:
        return message
    joined = {"type": "text", "text": "".join(str(p["text"]) for p in texts)}
    others = [p for p in content if not any(p is t for t in texts)]
    return {**message, "content": [joined, *others]}


class SummaryLLM(Delegate):
    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        reply = await self._inner.generate(*args, **kwargs)
        return replace_record(reply, message=one_part(reply.message))

    def with_model(self, model: str) -> Any:
        return SummaryLLM(self._inner.with_model(model))


class Mutant(ReferenceImplementation):
    name = "semantic-sb_cmp_summary_parts_concat"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return super().context_compactor(storage, SummaryLLM(llm), **options)


implementation = Mutant
