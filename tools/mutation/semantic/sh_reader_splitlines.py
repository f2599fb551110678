"""``read`` splits the transcript into lines with Python's ``str.splitlines()`` (or a ``/\\r\\n|\\r|\\n|
\\u2028|\\u2029/`` split, as a port that "handles every line ending" writes), where the original splits on
``"\\n"`` only: a line whose text holds a raw U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR or U+0085
NEXT LINE (``JSON.stringify`` writes all three unescaped, so a pasted paragraph brings them into a
session file) is cut in two halves that are not JSON, and the turn is lost with two warnings.

Pattern: CRLF line endings / what counts as a line break; every transcript of the examples has ``\\n``
and ``\\r\\n`` line ends only, which both splits agree on.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "what counts as a line break"

# The breaks of str.splitlines() besides "\n" and "\r\n"; each becomes "\n" (one character for one, so
# the file keeps its length and every other line its number).
OTHER_BREAKS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class Reader(Delegate):
    def read(self, file_path: Any) -> Any:
        path = Path(file_path)
        if not path.is_file():
            return self._inner.read(file_path)
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        if not OTHER_BREAKS.search(text):
            return self._inner.read(file_path)
        with tempfile.TemporaryDirectory() as scratch:
            split = Path(scratch) / path.name
            split.write_bytes(OTHER_BREAKS.sub("\n", text).encode("utf-8", "surrogateescape"))
            return self._inner.read(split)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_reader_splitlines"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
