"""The reader's settings (``SYNAPSE_CHARS_PER_TOKEN``, ``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT``) are read by
a ``parseInt`` the port writes with Python's ``\\s*([+-]?)(\\d+)`` and ``int()``: a value in full-width or
Arabic-Indic digits (``３``, ``٥٠``) is a number to the port, where the original's ``parseInt`` reads
NaN and keeps its default (4 characters per token, 200 characters per tool result).

Pattern: a number read the way Python reads it; every example value is ASCII.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import settings
from tools.mutation.semantic._support import SwappedCalls, python_parse_int

AREAS = ("reader",)
PATTERN = "a number read the way Python reads it"


class Mutant(ReferenceImplementation):
    name = "semantic-ss_reader_settings_python_digits"

    def conversation_reader(self) -> Any:
        return SwappedCalls(super().conversation_reader(), (settings, "parse_int", python_parse_int))


implementation = Mutant
