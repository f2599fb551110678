"""The ``arguments`` of a Synapse session's tool call are read with a lenient JSON reader: the port
turns the arguments text into the call's input with ``json.loads`` (or a Go ``json.Unmarshal`` behind a
NaN-tolerant wrapper), so ``{"timeout": NaN}`` becomes an input holding a NaN where the original's
``JSON.parse`` refuses the text and the input is ``{}``.  The rest of the call is read alike, so only a
reader of the inputs sees the difference, and every example's arguments are valid JSON or plainly
broken text.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``) in the second of
two parsers of one line (the line, then the arguments inside it).
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import conversation_reader
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "JSON.parse against json.loads"


def lenient_arguments(arguments: Any) -> Any:
    try:
        return json.loads(arguments)
    except (TypeError, ValueError):
        return {}


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        with swapped(conversation_reader, "_arguments_input", lenient_arguments):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        with swapped(conversation_reader, "_arguments_input", lenient_arguments):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_tool_arguments_python_json"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
