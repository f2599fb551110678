"""A tool message without text parts is offloaded as the port's ``json.dumps`` of its content, where the
original saves ``JSON.stringify(message.content)``: JavaScript writes ``1280.0`` as ``1280`` and
``1e-06`` as ``0.000001``, and an object holds its array-index keys (``"2"`` before ``"10"``) ahead of
the others.  The offload file of an image part with Python-written sizes, or of a structured result
keyed by line numbers, then differs from the original's.

Pattern: ``JSON.stringify`` against the port's JSON writer; the example content holds strings only.
"""

from __future__ import annotations

import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context import context_manager
from tools.mutation.semantic._support import SwappedCalls

AREAS = ("context",)
PATTERN = "JSON.stringify against the port's JSON writer"


def python_dumps(content: Any) -> str:
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


class Mutant(ReferenceImplementation):
    name = "semantic-ss_ctx_offload_json_python_dumps"

    def context_manager(self, *args: Any, **options: Any) -> Any:
        return SwappedCalls(
            super().context_manager(*args, **options), (context_manager, "json_stringify", python_dumps)
        )


implementation = Mutant
