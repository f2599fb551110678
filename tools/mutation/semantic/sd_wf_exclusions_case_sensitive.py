"""Without a VERDICT marker the keyword rules find the keywords in the lower-cased message, but the port
checks the exclusions ("no fail", "not reject", "no issues", "error handling", ...) against the message
as written: a helper lower-cases what it searches for words, the exclusion test is a plain
``output.includes(x)``. "No failures" then reads as a failure, where the original lower-cases the
message once and applies both lists to it.

Pattern: two rules agree on the examples; every example phrase of an exclusion is written in lower case.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow import on_stop
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"

_reference_parse = on_stop.parse_verdict
EXCLUSIONS = {
    ("REVIEW", "SECURITY", "DB-REVIEW"): ("reject", ("no reject", "not reject")),
    ("TEST", "QA", "E2E", "BUILD-FIX"): ("fail", ("no fail", "0 fail", "without fail", "failure mode")),
}


def parse_verdict(output: str, stage: str) -> str:
    verdict = _reference_parse(output, stage)
    if verdict != "pass" or on_stop._VERDICT_MARKER.search(output):
        return verdict
    lower = output.lower()
    for stages, (found, excluded) in EXCLUSIONS.items():
        words = ("拒絕",) if found == "reject" else ("失敗",)
        if (
            stage in stages
            and any(w in lower for w in (found, *words))
            and not any(x in output for x in excluded)
        ):
            return found
    if stage == "RETRO":
        excluded = ("no issues", "0 issues", "no significant issues", "without issues")
        if "issues" in lower and not any(x in output for x in excluded):
            return "issues"
    return verdict


@contextlib.contextmanager
def _case_sensitive_exclusions() -> Iterator[None]:
    """Swapped only while a call of this implementation runs; the reference keeps its own rule."""
    saved = on_stop.parse_verdict
    on_stop.parse_verdict = parse_verdict
    try:
        yield
    finally:
        on_stop.parse_verdict = saved


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        with _case_sensitive_exclusions():
            return self._inner.on_stop(event)

    def on_stop_command(self, stdin: str) -> Any:
        with _case_sensitive_exclusions():
            return self._inner.on_stop_command(stdin)


class Mutant(ReferenceImplementation):
    name = "semantic-sd_wf_exclusions_case_sensitive"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
