"""A successful ``clear()`` or ``rewrite_history()`` leaves its temporary file next to the history: the
port writes ``<id>.jsonl.tmp-<pid>-<hex>``, copies it over the history (``copyFile``, where the
original renames) and removes the temporary file only on its failure path.

Pattern: "nothing is left behind" asserted after one branch only: the failed rewrite is checked for
stray files, a successful one and a clear are not.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import Any

from tools.mutation.semantic._support import Delegate, SessionMutant

AREAS = ("session",)
PATTERN = "state checked after one branch only"


class Session(Delegate):
    def _mut_leave_copy(self) -> None:
        history = Path(self._inner.history_path)
        if history.is_file():
            shutil.copyfile(history, f"{history}.tmp-{os.getpid()}-{secrets.token_hex(4)}")

    def clear(self, *, reset_usage: bool = True) -> None:
        self._inner.clear(reset_usage=reset_usage)
        self._mut_leave_copy()

    def rewrite_history(self, messages: Any) -> None:
        self._inner.rewrite_history(messages)
        self._mut_leave_copy()


class Mutant(SessionMutant):
    name = "semantic-sa_session_temp_left_on_success"
    session_class = Session


implementation = Mutant
