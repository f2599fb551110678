"""The text parts of a tool result are joined the Python way: the port writes
``"\n".join(str(p.get("text", "")) for p in parts)``, where the original joins ``part.text`` with
``Array.join``, which writes a missing or null text as nothing and a boolean as ``true`` or ``false``.
A result streamed with an empty chunk that a serialiser wrote as ``null`` then reads ``None`` in the
text the skill enhancer learns from, and a flag part reads ``True``.

Pattern: JavaScript against Python readings (``Array.join`` against ``str``); every example text part
holds a string.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import conversation_reader
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "Array.join against str"

_reference_as_text = conversation_reader._as_text


def python_as_text(content: Any) -> str:
    if isinstance(content, list) and all(isinstance(p, dict) and p.get("type") == "text" for p in content):
        return "\n".join(str(p.get("text", "")) for p in content)
    return str(_reference_as_text(content))


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        with swapped(conversation_reader, "_as_text", python_as_text):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        with swapped(conversation_reader, "_as_text", python_as_text):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_result_text_parts_python_str"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
