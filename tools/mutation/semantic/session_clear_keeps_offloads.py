"""``clear(reset_usage=False)`` (forget the conversation, keep the bill) leaves the offloaded files: the
port deletes the offload directory only on the full reset, as if the files belonged to the usage.

Pattern: "nothing is left behind" asserted after one kind of clear only.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "state checked after one branch only"


class Session(Delegate):
    def clear(self, *, reset_usage: bool = True) -> None:
        offloads = Path(self._inner.offload_dir)
        if reset_usage or not offloads.is_dir():
            self._inner.clear(reset_usage=reset_usage)
            return
        keep = Path(tempfile.mkdtemp(prefix="semantic-offloads-")) / "kept"
        shutil.copytree(offloads, keep)
        try:
            self._inner.clear(reset_usage=reset_usage)
            shutil.copytree(keep, offloads, dirs_exist_ok=True)
        finally:
            shutil.rmtree(keep.parent, ignore_errors=True)


class Mutant(SessionMutant):
    name = "semantic-session_clear_keeps_offloads"
    session_class = Session


implementation = Mutant
