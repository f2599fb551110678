"""The text of a tool message is joined the Python way: the port collects ``part["text"]`` of the
parts that have one and joins ``str(text)``, where the original maps every part of type ``text`` to
its ``text`` and lets ``Array.join`` write a missing or null text as nothing.  A result whose first
part is a text part without text (a placeholder a tool streamed before its output, a ``null`` a
serializer wrote for an empty string) is then saved without the line the original keeps for it, and
a ``null`` text is saved as the word ``None``.

Pattern: JavaScript against Python readings (``Array.join`` of ``undefined`` and ``null``); every
example text part holds a string.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._baseline_offload import Baseline
from tools.mutation.semantic._support import OffloadManager, message_text

AREAS = ("context",)
PATTERN = "Array.join against str.join"
BASELINE = "_baseline_offload"


def python_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        parts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
        texts = [p["text"] for p in parts if "text" in p]
        if texts:
            return "\n".join(str(t) for t in texts)
    return message_text(message)


class Manager(OffloadManager):
    def text_of(self, message: dict[str, Any]) -> str:
        return python_text(message)


class Mutant(Baseline):
    name = "semantic-sq_ctx_offload_textless_parts_python"
    manager = Manager


implementation = Mutant
