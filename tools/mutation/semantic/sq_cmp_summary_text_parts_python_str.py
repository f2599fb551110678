"""The text parts of the summary reply are joined the Python way: the port keeps the parts that have a
``text`` and joins ``str(text)``, where the original's ``extractText`` maps every text part to its
``part.text`` and lets ``Array.join`` write a null text as nothing.  A reply whose first text part came
with a null text (an empty part a provider adapter wrote as ``null``) then opens the summary with
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


def python_reply_text(message: dict[str, Any]) -> str:
    """Adjacent text parts merged and the rest joined with newlines, as the reference does, but each
    text written with ``str()`` and parts without a ``text`` left out."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    texts: list[str] = []
    adjacent = False
    for part in content if isinstance(content, list) else ():
        is_text = isinstance(part, dict) and part.get("type") == "text"
        if is_text and "text" in part:
            if adjacent:
                texts[-1] += str(part["text"])
            else:
                texts.append(str(part["text"]))
        adjacent = is_text
    return "\n".join(texts)


class Compactor(ContextCompactor):
    async def generate_summary(self, messages: list[Any]) -> str:
        with swapped(compactor_module, "_reply_text", python_reply_text):
            return await super().generate_summary(messages)


class Mutant(CompactorMutant):
    name = "semantic-sq_cmp_summary_text_parts_python_str"
    compactor = Compactor


implementation = Mutant
