"""A reply's text parts reach the runner joined by a newline: the port's provider adapter folds a
message's text blocks into one (``blocks.map(b => b.text).join("\\n")``), where the original's loop
concatenates them as they stream (``textBlocks.join("")``), so a reply sent as ``"Hel"`` + ``"lo"`` reads
``"Hel\\nlo"``.

Pattern: an input carrying two things (two text parts) where every example reply has one.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent",)
PATTERN = "input carrying two things rendered by different rules"


def folded(message: Any) -> Any:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return message
    texts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
    if len(texts) < 2:
        return message
    others = [p for p in content if p not in texts]
    text = "\n".join(str(p.get("text", "")) for p in texts)
    return {**message, "content": [{"type": "text", "text": text}, *others]}


class Client(Delegate):
    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        reply = await self._inner.generate(*args, **kwargs)
        return replace_record(reply, message=folded(reply.message))


class Mutant(ReferenceImplementation):
    name = "semantic-sf_runner_text_parts_newline"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return super().agent_runner(Client(llm), toolset, **options)


implementation = Mutant
