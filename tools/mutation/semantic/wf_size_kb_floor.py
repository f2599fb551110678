"""``formatSize`` truncates kilobytes (``Math.floor(size / 1000)``) where the original rounds half up
(``Math.round``): 1,500 bytes shows as ``1KB`` instead of ``2KB``.

Pattern: two rules that agree on the examples; 800,000 bytes is ``800KB`` either way.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


class Workflow(Delegate):
    def format_size(self, size: int) -> str:
        if 1_000 <= size < 1_000_000:
            return f"{size // 1_000}KB"
        return str(self._inner.format_size(size))


class Mutant(ReferenceImplementation):
    name = "semantic-wf_size_kb_floor"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
