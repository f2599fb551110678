"""``readTruncated(path, maxChars)`` reads the last ``maxChars`` *bytes* of the file: the natural way to
read a tail (``seek(-n, SEEK_END)``), correct as long as every character is one byte.

Pattern: a length limit checked only on ASCII; with CJK or emoji lines the window holds fewer
characters than asked, so turns that fit are lost.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "length limit checked only on ASCII"


class Reader(Delegate):
    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        path = Path(file_path)
        if max_chars <= 0 or not path.exists():
            return self._inner.read_truncated(file_path, max_chars)
        data = path.read_bytes()
        window = data[-max_chars:]
        if len(window) < len(data) and data[-max_chars - 1 : -max_chars] != b"\n":
            newline = window.find(b"\n")
            window = b"" if newline == -1 else window[newline + 1 :]
        text = window.decode("utf-8", errors="ignore")
        handle, name = tempfile.mkstemp(suffix=".jsonl")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            return self._inner.read(name)
        finally:
            os.unlink(name)


class Mutant(ReferenceImplementation):
    name = "semantic-reader_truncated_bytes"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
