"""An offloaded result that starts with white space is named ``.txt`` without being parsed: the port
tells JSON from text by its first character (``{``, ``[``, a digit, ...) before it tries to parse, a
shortcut that saves a failed parse on every plain-text output, and forgets that JSON may start with
JSON's own white space.  ``JSON.parse`` (the original) skips spaces, tabs and line breaks first, so
pretty-printed JSON behind a blank line, or indented by the tool, is still ``.json``.

Pattern: a boundary tested only on one side; every JSON example starts with its value and only one ends
with white space.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "boundary tested on one side (leading JSON white space)"


class Storage(Delegate):
    def save(self, content: str, ext: str | None = None) -> str:
        path: str = self._inner.save(content, ext)
        stem, _, suffix = path.rpartition(".")
        if suffix != "json" or content[:1] not in (" ", "\t", "\n", "\r"):
            return path
        renamed = f"{stem}.txt"
        os.rename(path, renamed)
        return renamed


class Mutant(ReferenceImplementation):
    name = "semantic-so_ctx_ext_leading_space_txt"

    def offload_storage(self, session_dir: Any) -> Any:
        return Storage(super().offload_storage(session_dir))


implementation = Mutant
