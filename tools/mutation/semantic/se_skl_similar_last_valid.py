"""When the model names several installed skills as similar, the port reports the *last* usable one: it
walks the answer's list assigning every usable entry to ``similar`` (a loop without a ``break``), where the
original takes the first candidate (``similarCandidates[0]``).  An answer listing ``git-commit`` first and
``pr-notes`` second is reported as similar to ``pr-notes``, and the ``--merge`` advice names that target.

Pattern: keeping the first vs the last of duplicates; every example answer has one usable entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills.importer import SIMILARITY_SYSTEM_PROMPT
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("skills",)
PATTERN = "keeping the first vs the last of duplicates"


def _reversed_answer(text: str) -> str | None:
    try:
        answer = json.loads(text)
    except ValueError:
        return None
    if not isinstance(answer, dict) or not isinstance(answer.get("similar"), list):
        return None
    return json.dumps({**answer, "similar": list(reversed(answer["similar"]))})


class LastWinsLLM(Delegate):
    """Hands the importer the similarity answer's entries last first, so its first-match loop keeps the
    last usable entry, as the port's loop does."""

    async def generate(
        self, system_prompt: str, messages: Sequence[Mapping[str, Any]], *args: Any, **kw: Any
    ) -> Any:
        reply = await self._inner.generate(system_prompt, messages, *args, **kw)
        if system_prompt != SIMILARITY_SYSTEM_PROMPT:
            return reply
        message = reply.message
        parts = message.get("content") if isinstance(message, Mapping) else None
        if not isinstance(parts, list):
            return reply
        text = "".join(
            str(p.get("text", "")) for p in parts if isinstance(p, dict) and p.get("type") == "text"
        )
        changed = _reversed_answer(text)
        if changed is None:
            return reply
        return replace_record(reply, message={**message, "content": [{"type": "text", "text": changed}]})


class Mutant(ReferenceImplementation):
    name = "semantic-se_skl_similar_last_valid"

    def skill_importer(self, skills_dir: Any, llm: Any) -> Any:
        return super().skill_importer(skills_dir, LastWinsLLM(llm))


implementation = Mutant
