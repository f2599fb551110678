"""The text parts of the summary reply are joined the Python way: the port keeps the parts that have a
``text`` and joins ``str(text)``, where the original's ``extractText`` maps every text part to its
``part.text`` and lets ``Array.join`` write a null text as nothing.  A reply whose first streamed chunk
came with a null text (an empty delta a provider adapter wrote as ``null``) then opens the summary with
``None`` instead of an empty line, and the compacted history carries the word into every later
request.

Pattern: JavaScript against Python readings (``Array.join`` against ``str``); every example reply part
holds a string.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context import compactor as compactor_module
from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant
from tools.mutation.semantic._support import swapped

AREAS = ("context",)
PATTERN = "Array.join against str"
BASELINE = "_baseline_orchestrator"


def python_texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    parts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
    return [str(p["text"]) for p in parts if "text" in p]


class Compactor(ContextCompactor):
    async def generate_summary(self, messages: list[Any]) -> str:
        with swapped(compactor_module, "_texts", python_texts):
            return await super().generate_summary(messages)


class Mutant(CompactorMutant):
    name = "semantic-sq_cmp_summary_text_parts_python_str"
    compactor = Compactor


implementation = Mutant
