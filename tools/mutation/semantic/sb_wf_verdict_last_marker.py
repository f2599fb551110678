"""The verdict comes from the last ``<!-- VERDICT: ... -->`` marker of the agent's message, where the
original takes the first: the port scans from the end ("the agent's final word"), as a greedy
``.*VERDICT`` or ``lastIndexOf`` does.

Pattern: keeping the first vs the last of duplicates; every example carries one marker at most.
"""

from __future__ import annotations

import json
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "first vs last of duplicates"

MARKER = re.compile(r"<!--\s*VERDICT:\s*(\{[^}]+\})\s*-->")


def last_marker_first(message: Any) -> Any:
    """The message with its last marker moved in front, so a first-marker reader sees the last one."""
    if not isinstance(message, str):
        return message
    markers = list(MARKER.finditer(message))
    if len(markers) < 2:
        return message
    last = markers[-1]
    return last.group(0) + " " + message[: last.start()] + message[last.end() :]


def mutated(event: Any) -> Any:
    if isinstance(event, dict) and "last_assistant_message" in event:
        return {**event, "last_assistant_message": last_marker_first(event["last_assistant_message"])}
    return event


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        return self._inner.on_stop(mutated(event))

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)
        changed = mutated(event)
        if changed is event:
            return self._inner.on_stop_command(stdin)
        return self._inner.on_stop_command(json.dumps(changed, ensure_ascii=False))


class Mutant(ReferenceImplementation):
    name = "semantic-sb_wf_verdict_last_marker"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
