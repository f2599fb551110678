"""``formatSize`` writes megabytes with Python's ``f"{mb:.1f}"`` (or C's ``printf("%.1f")``), which rounds
an exact tie to even, where the original's ``toFixed(1)`` rounds it up: 1,250,000 bytes is ``1.2MB``
instead of ``1.3MB``.

Pattern: two rules that agree on the examples; 1.05 MB and 6.55 MB are not ties in binary, so both rules
write ``1.1MB`` and ``6.5MB``.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


class Workflow(Delegate):
    def format_size(self, size: int) -> str:
        if size >= 1_000_000:
            return f"{size / 1_000_000:.1f}MB"
        return str(self._inner.format_size(size))


class Mutant(ReferenceImplementation):
    name = "semantic-sb_wf_size_mb_half_even"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
