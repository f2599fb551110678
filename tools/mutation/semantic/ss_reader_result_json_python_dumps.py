"""A tool result whose content is a JSON object rather than text is written with the port's
``json.dumps(content, ensure_ascii=False, separators=(",", ":"))``, where the original writes
``JSON.stringify(content)`` of the parsed line.  The two differ twice: JavaScript writes ``2.0`` as
``2``, and an object parsed by ``JSON.parse`` holds its array-index keys (``"2"``, ``"10"``) first, in
numeric order, so ``{"10": ..., "2": ...}`` comes back as ``{"2": ..., "10": ...}``; a Python dict keeps
the order of the text.

Pattern: ``JSON.stringify`` against the port's JSON writer; every example result is text or holds
neither a float nor a numeric key.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import conversation_reader
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "JSON.stringify against the port's JSON writer"


def python_dumps(content: Any) -> str:
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


class Reader(Delegate):
    """The port's reading of a tool result; its token estimate (``summarize``) is the reference's."""

    def read(self, file_path: Any) -> Any:
        with swapped(conversation_reader, "_as_json", python_dumps):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        with swapped(conversation_reader, "_as_json", python_dumps):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-ss_reader_result_json_python_dumps"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
