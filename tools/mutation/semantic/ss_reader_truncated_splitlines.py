"""``readTruncated`` splits its window into lines with Python's ``str.splitlines()``, where the original
splits at ``"\\n"`` only (``truncated.split('\\n')``).  ``read`` may be right (the port wrote it first, and
its test has a pasted paragraph), but the window's lines break at U+2028, U+2029, U+0085, U+001C..U+001E,
a lone ``\\r``, U+000B and U+000C too: a turn whose text holds one of them (``JSON.stringify`` writes them
raw) is cut into halves that are no JSON, and the most recent turns, the ones ``readTruncated`` exists
for, are lost with two warnings.

Pattern: what counts as a line break; RDR-071 reads such a line with ``read`` only.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "what counts as a line break"

OTHER_BREAKS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class Reader(Delegate):
    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        inner = self._inner
        path = Path(file_path)
        if max_chars <= 0 or not path.exists():
            return inner.read_truncated(file_path, max_chars)
        window, starts_mid_line = inner._tail_window(path, max_chars)
        window = inner._align_to_line(window, starts_mid_line)
        return inner._parse_blocks([OTHER_BREAKS.sub("\n", window).encode("utf-8", "surrogatepass")])


class Mutant(ReferenceImplementation):
    name = "semantic-ss_reader_truncated_splitlines"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
