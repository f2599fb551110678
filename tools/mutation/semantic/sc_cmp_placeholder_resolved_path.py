"""The placeholder of a missing offload file names the resolved path: the port builds
``[Content unavailable: ${normalizedPath}]`` from the path it checked and tried to read, where the
original repeats the reference as the history wrote it, so the summary model sees a path that appears
nowhere in the conversation.

Pattern: an input carrying two things rendered by different rules (the written path and the resolved
one); every example reference is already absolute and normalised, so the two are equal.
"""

from __future__ import annotations

import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "input carrying two things"

PLACEHOLDER = re.compile(r"\[Content unavailable: (.*)\]", re.DOTALL)


def resolved(message: Any) -> Any:
    content = message.get("content") if isinstance(message, dict) else None
    if message.get("role") != "tool" or not isinstance(content, list):
        return message
    parts = []
    for part in content:
        text = part.get("text") if isinstance(part, dict) else None
        found = PLACEHOLDER.fullmatch(text) if isinstance(text, str) else None
        if found and "\0" not in found.group(1):
            part = {**part, "text": f"[Content unavailable: {os.path.realpath(found.group(1))}]"}
        parts.append(part)
    return {**message, "content": parts}


class SummaryModel(Delegate):
    async def generate(self, system: Any, messages: list[Any], *args: Any, **options: Any) -> Any:
        return await self._inner.generate(system, [resolved(m) for m in messages], *args, **options)

    def with_model(self, model: str) -> Any:
        return SummaryModel(self._inner.with_model(model))


class Mutant(ReferenceImplementation):
    name = "semantic-sc_cmp_placeholder_resolved_path"

    def context_compactor(self, storage: Any, llm: Any, **options: Any) -> Any:
        model: Any = SummaryModel(llm)
        return super().context_compactor(storage, model, **options)


implementation = Mutant
