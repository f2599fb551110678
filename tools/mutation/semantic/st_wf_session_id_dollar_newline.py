"""The session id is checked with the pattern copied from JavaScript, ``^[A-Za-z0-9_][A-Za-z0-9_.-]*$``,
through Python's ``re.match``.  Python's ``$`` matches at the very end *or before a final newline*, where
JavaScript's (without the ``m`` flag) matches at the end only: ``wfr-newline\\n`` passes the check, and the
workflow creates a directory whose name ends in a newline, an id its own rule refuses.

Pattern: a regular expression's ``$`` read by Python's rules; no example id ends in a newline.
"""

from __future__ import annotations

import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import paths
from tools.mutation.semantic._support import Delegate, swapped

AREAS = ("workflow",)
PATTERN = "a regular expression's $ read by Python's rules"

_COPIED = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")


def check_with_dollar(session_id: str) -> str:
    if not _COPIED.match(session_id):
        raise ValueError(f"invalid session id: {session_id!r}")
    return session_id


class _Swapping(Delegate):
    def __getattr__(self, name: str) -> Any:
        value = super().__getattr__(name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with swapped(paths, "check_session_id", check_with_dollar):
                return value(*args, **kwargs)

        return call


class Workflow(_Swapping):
    @property
    def state(self) -> Any:
        return _Swapping(self._inner.state)

    @property
    def timeline(self) -> Any:
        return _Swapping(self._inner.timeline)


class Mutant(ReferenceImplementation):
    name = "semantic-st_wf_session_id_dollar_newline"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
