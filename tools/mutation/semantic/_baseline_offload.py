"""The reference adapter with the self-contained offload of ``_support.OffloadManager``, no rule changed.

Not a mutant: it must pass the context features, which shows that the offload mutants are killed by
their changed rule::

    pytest features/context --synapse-impl=tools.mutation.semantic._baseline_offload
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import OffloadManager

AREAS = ("context",)


class Baseline(ReferenceImplementation):
    name = "semantic-baseline-offload"
    manager = OffloadManager

    def context_manager(
        self, storage: Any, *, offload_threshold: int, scan_ratio: float, min_chars: int, **options: Any
    ) -> Any:
        counter = super().context_manager(
            storage, offload_threshold=2**62, scan_ratio=scan_ratio, min_chars=min_chars, **options
        )
        return self.manager(
            storage, counter, threshold=offload_threshold, scan_ratio=scan_ratio, min_chars=min_chars
        )


implementation = Baseline
