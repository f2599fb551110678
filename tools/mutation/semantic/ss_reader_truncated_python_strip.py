"""``readTruncated`` drops the blank lines of its window with Python's ``line.strip()``, where the original
keeps the lines whose ``line.trim()`` is not empty.  ``str.strip()`` removes U+001C..U+001F and U+0085,
which are no white space to JavaScript, and keeps U+FEFF, which is: a line of U+001C is dropped in
silence where the original warns that it is no JSON, and a line of a byte-order mark is warned about
where the original skips it.  ``read`` may be right (RDR-085 reads such lines with ``read`` only).

Pattern: white space read the way Python reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import trim
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "white space read the way Python reads it"


def python_lines(window: str) -> str:
    kept = []
    for line in window.split("\n"):
        if not line.strip():
            continue  # U+001C or U+0085 alone: dropped without a warning
        # U+FEFF alone is kept and refused as JSON with a warning (the NUL makes the reference refuse it)
        kept.append(line + "\x00" if not trim(line) else line)
    return "\n".join(kept)


class Reader(Delegate):
    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        inner = self._inner
        path = Path(file_path)
        if max_chars <= 0 or not path.exists():
            return inner.read_truncated(file_path, max_chars)
        window, starts_mid_line = inner._tail_window(path, max_chars)
        window = inner._align_to_line(window, starts_mid_line)
        return inner._parse_blocks([python_lines(window).encode("utf-8", "surrogatepass")])


class Mutant(ReferenceImplementation):
    name = "semantic-ss_reader_truncated_python_strip"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
