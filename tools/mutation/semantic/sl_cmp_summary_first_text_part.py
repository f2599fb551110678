"""The summary is the first text part of the model's reply: the port reads ``reply.content.find(p =>
p.type === 'text')?.text`` ("the answer"), where the original joins every text part of the reply.  A
model that streams its summary in several text blocks (Anthropic splits a long answer around a thinking
or a citation block; an OpenAI-compatible proxy may send one block per paragraph) leaves a summary cut
after its first block, and the compressed history loses the rest of what it should keep.

Pattern: only the first of several; every example summary arrives as one text part.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("context",)
PATTERN = "only the first of several"


def _first_text_only(message: dict[str, Any]) -> dict[str, Any]:
    content = message.get("content")
    if not isinstance(content, list):
        return message
    texts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
    if len(texts) < 2:
        return message
    return {**message, "content": [p for p in content if p is texts[0] or p not in texts]}


class SummaryClient(Delegate):
    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        reply = await self._inner.generate(*args, **kwargs)
        return replace_record(reply, message=_first_text_only(reply.message))


class SwitchingSummaryClient(SummaryClient):
    def with_model(self, model: str) -> Any:
        return wrap(self._inner.with_model(model))


def wrap(llm: Any) -> Any:
    """The client with the cut replies, switching models only when the wrapped client can."""
    return SwitchingSummaryClient(llm) if callable(getattr(llm, "with_model", None)) else SummaryClient(llm)


class Mutant(ReferenceImplementation):
    name = "semantic-sl_cmp_summary_first_text_part"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        return super().context_compactor(storage, wrap(llm), **options)

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return super().context_orchestrator(wrap(llm), **options)


implementation = Mutant
