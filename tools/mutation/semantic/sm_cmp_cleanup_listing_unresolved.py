"""The compaction's cleanup compares the listed offload files by their absolute path with references
resolved through symbolic links: the port translates Node's ``path.resolve`` (which never follows
links) as ``Path(ref).resolve()`` for the references the kept tail holds and ``Path(file).absolute()``
for the listing, or the other way round.  When the sessions directory is reached through a symbolic
link (``~/.synapse`` on another disk, macOS's ``/tmp`` -> ``/private/tmp``) no listed file equals a
reference, and every offload file is deleted, the ones the kept tail still points to included: the next
compaction can only say ``[Content unavailable: ...]``.

Pattern: two sources of one value normalised by different rules; every example session directory is
reached without a link.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "two sources normalised by different rules"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def cleanup_offloaded_files(self, retained: Iterable[str] = ()) -> list[str]:
        # The references resolved, the listing only made absolute: keep exactly the listed files whose
        # absolute path is a resolved reference, by handing the reference's own cleanup those files.
        resolved: set[str] = set()
        for path in retained:
            with contextlib.suppress(OSError, ValueError):
                resolved.add(os.path.realpath(path))
        kept = [file for file in self.storage.list_files() if os.path.abspath(file) in resolved]
        return super().cleanup_offloaded_files(kept)


class Mutant(CompactorMutant):
    name = "semantic-sm_cmp_cleanup_listing_unresolved"
    compactor = Compactor


implementation = Mutant
