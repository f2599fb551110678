"""An offloaded result is named ``.json`` when its *trimmed* text parses as JSON: the port writes
``JSON.parse(content.trim())`` (or Python's ``json.loads(content.strip())``), so a JSON value with a
byte-order mark, a no-break space or a form feed around it counts as JSON, where ``JSON.parse`` on the
whole output (the original) allows only JSON's own four whitespace characters.

Pattern: a BOM / whitespace that is not JSON whitespace; every example pads JSON with a newline only,
which both rules accept.
"""

from __future__ import annotations

import json
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "BOM and non-JSON whitespace trimmed"


def trimmed_is_json(content: str) -> bool:
    try:
        json.loads(content.strip().strip("\ufeff").strip())
    except (ValueError, RecursionError):
        return False
    return True


class Storage(Delegate):
    def save(self, content: str, ext: str | None = None) -> str:
        path: str = self._inner.save(content, ext)
        stem, dot, suffix = path.rpartition(".")
        wanted = "json" if trimmed_is_json(content) else "txt"
        if not dot or suffix == wanted:
            return path
        renamed = f"{stem}.{wanted}"
        os.rename(path, renamed)
        return renamed


class Mutant(ReferenceImplementation):
    name = "semantic-sc_ctx_ext_trimmed_json"

    def offload_storage(self, session_dir: Any) -> Any:
        return Storage(super().offload_storage(session_dir))


implementation = Mutant
