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
import logging
import os
from collections.abc import Iterable

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "two sources normalised by different rules"
BASELINE = "_baseline_orchestrator"

logger = logging.getLogger("synapse.context.compactor")


class Compactor(ContextCompactor):
    def cleanup_offloaded_files(self, retained: Iterable[str] = ()) -> list[str]:
        keep: set[str] = set()
        for path in retained:
            with contextlib.suppress(OSError, ValueError):
                keep.add(os.path.realpath(path))
        deleted: list[str] = []
        for file in self.storage.list_files():
            if os.path.abspath(file) in keep:
                continue
            try:
                self.storage.remove(file)
            except Exception as exc:
                logger.warning("Failed to delete offloaded file during compact cleanup: %s (%s)", file, exc)
                continue
            deleted.append(file)
        return deleted


class Mutant(CompactorMutant):
    name = "semantic-sm_cmp_cleanup_listing_unresolved"
    compactor = Compactor


implementation = Mutant
