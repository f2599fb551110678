"""Whether a file renamed over another needs an ``fdatasync`` first to survive a power loss.

Its own module because only a power loss could tell its answers apart: no scenario can, so the mutation
score leaves it out (``tools/mutation/scope.toml``) and ``tests/test_session_durability.py`` pins it.
"""

from __future__ import annotations

import functools
import os

_ORDERING_BREAKERS = frozenset({"noauto_da_alloc", "data=writeback", "nobarrier", "barrier=0"})


def rename_orders_data(mountinfo: str, device: int) -> bool:
    """Whether the file system of ``device`` (``st_dev``), as ``/proc/self/mountinfo`` lists it, writes
    the data of a file renamed over an existing one before it commits the rename.

    ext4 does with its defaults (``data=ordered`` or ``data=journal``, ``auto_da_alloc``, write
    barriers): it detects the replace-via-rename pattern and forces the new file's blocks to disk ahead
    of the journal commit holding the rename, so a power loss leaves the old or the new file, never an
    empty one, and an ``fdatasync`` adds only waiting.  Any other file system, or ext4 mounted without
    one of those, gets the sync.
    """
    wanted = f"{os.major(device)}:{os.minor(device)}"
    for line in mountinfo.splitlines():
        fields = line.split()
        if len(fields) < 7 or fields[2] != wanted or "-" not in fields[6:]:
            continue
        after = fields[fields.index("-", 6) + 1 :]  # file system type, source, super block options
        options = set(after[2].split(",")) if len(after) > 2 else set()
        return after[:1] == ["ext4"] and not options & _ORDERING_BREAKERS
    return False


@functools.lru_cache(maxsize=16)
def device_orders_renames(device: int) -> bool:
    """:func:`rename_orders_data` of this process's mount table, read once per device."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            return rename_orders_data(handle.read(), device)
    except (OSError, AttributeError):  # no /proc (not Linux), no os.major
        return False
