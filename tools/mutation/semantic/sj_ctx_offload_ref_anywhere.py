"""A tool result that merely *mentions* ``Tool result is at:`` is taken for an offload reference and
never offloaded: the port tests ``text.includes("Tool result is at:")`` to skip results it already
offloaded, where the original skips only a text that starts (after leading white space) with the
marker, so a ``grep`` over the session's own logs, or a result quoting an earlier reference, stays
inline however long it is.

Pattern: a marker tested where it may be (anywhere) instead of where it must be (at the start); every
example's reference is the whole text and no other result contains the marker.
"""

from __future__ import annotations

from tools.mutation.semantic._baseline_offload import Baseline
from tools.mutation.semantic._support import OFFLOAD_PREFIX, OffloadManager

AREAS = ("context",)
PATTERN = "marker anywhere instead of at the start"
BASELINE = "_baseline_offload"


class AnywhereManager(OffloadManager):
    def is_reference(self, text: str) -> bool:
        return OFFLOAD_PREFIX in text


class Mutant(Baseline):
    name = "semantic-sj_ctx_offload_ref_anywhere"
    manager = AnywhereManager


implementation = Mutant
