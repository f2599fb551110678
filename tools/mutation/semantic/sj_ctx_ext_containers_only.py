"""An offloaded result is saved as ``.json`` only when it is a JSON object or array: the port asks "is
this structured data?" (``startsWith("{") || startsWith("[")`` before parsing, or a Go port decoding
into ``map[string]any`` / ``[]any``), where the original names the file ``.json`` whenever the whole
output parses as JSON (``JSON.parse`` also accepts a string, a number, ``true``, ``false``, ``null``),
so a tool that prints one long JSON string gets a ``.txt`` file.

Pattern: two rules that agree on the examples; every JSON example is an object or an array.
"""

from __future__ import annotations

import json
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("context",)
PATTERN = "two rules agree on the examples"


class Storage(Delegate):
    def save(self, content: str, ext: str | None = None) -> str:
        path = str(self._inner.save(content, ext))
        if not path.endswith(".json"):
            return path
        try:
            value = json.loads(content)
        except ValueError:
            return path
        if isinstance(value, (dict, list)):
            return path
        renamed = path[: -len(".json")] + ".txt"
        os.replace(path, renamed)
        return renamed


class Mutant(ReferenceImplementation):
    name = "semantic-sj_ctx_ext_containers_only"

    def offload_storage(self, session_dir: Any) -> Any:
        return Storage(super().offload_storage(session_dir))


implementation = Mutant
