"""A transcript line holding ``NaN`` or ``Infinity`` is read as a turn: the port parses each line with
its language's lenient JSON reader (Python's ``json.loads``, which takes ``NaN``, ``Infinity`` and
``-Infinity`` as numbers) where the original's ``JSON.parse`` refuses the line, which is then skipped
with a warning.  Such lines are what a Python tool writing the transcript with ``json.dumps`` (whose
``allow_nan`` is on by default) leaves behind, so the port "reads more" exactly where the original
reads less: the turn is summarised, compacted and learnt from.

Pattern: JavaScript against Python readings (``JSON.parse`` against ``json.loads``); every damaged line
of the examples is refused by both.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.skills import conversation_reader
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("reader",)
PATTERN = "JSON.parse against json.loads"


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        with swapped(conversation_reader, "json_parse", json.loads):
            return self._inner.read(file_path)

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        with swapped(conversation_reader, "json_parse", json.loads):
            return self._inner.read_truncated(file_path, max_chars)


class Mutant(ReferenceImplementation):
    name = "semantic-sq_reader_nan_line_read"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
