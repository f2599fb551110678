"""The transcript is measured without following a symbolic link: the port takes ``fs.lstatSync(path)``
(``os.lstat``, ``Files.size`` with ``NOFOLLOW_LINKS``, "never follow a link into somewhere else"), where
the original's ``statSync(path).size`` measures the file the path leads to.  A transcript reached through
a link (a session directory moved and linked back, a dotfiles setup linking ``~/.claude``) is a link, not
a regular file, so the strategic compact is never suggested however large the conversation grows.

Pattern: two rules agree on the examples: every example transcript is a regular file at its path.
"""

from __future__ import annotations

import os
import types
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import compact_suggestion
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"

_NO_FOLLOW = types.SimpleNamespace(**{**vars(os), "stat": os.lstat})


class Workflow(Delegate):
    def should_suggest_compact(self, **arguments: Any) -> Any:
        with swapped(compact_suggestion, "os", _NO_FOLLOW):
            return self._inner.should_suggest_compact(**arguments)

    def on_stop(self, event: Any) -> Any:
        with swapped(compact_suggestion, "os", _NO_FOLLOW):
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with swapped(compact_suggestion, "os", _NO_FOLLOW):
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-si_wf_transcript_lstat"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
