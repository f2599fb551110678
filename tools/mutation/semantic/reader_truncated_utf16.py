"""``readTruncated(path, maxChars)`` keeps the last ``maxChars`` UTF-16 code units of the file, as a port
that reads the file into a JavaScript string and slices it (``text.slice(-maxChars)``) would.

Pattern: a length limit checked only on ASCII and CJK (one unit per character); emoji lines take two
units per character, so the window holds fewer characters than asked.
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
        units = path.read_bytes().decode("utf-8", errors="replace").encode("utf-16-le", "surrogatepass")
        window = units[-2 * max_chars :]
        before = units[-2 * max_chars - 2 : -2 * max_chars] if len(window) < len(units) else b""
        text = window.decode("utf-16-le", errors="ignore")
        if before and before.decode("utf-16-le", errors="ignore") != "\n":
            newline = text.find("\n")
            text = "" if newline == -1 else text[newline + 1 :]
        handle, name = tempfile.mkstemp(suffix=".jsonl")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as out:
                out.write(text)
            return self._inner.read(name)
        finally:
            os.unlink(name)


class Mutant(ReferenceImplementation):
    name = "semantic-reader_truncated_utf16"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
