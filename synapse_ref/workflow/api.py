"""One object per workflow root bundling state, timeline, the compact decision and the hook."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from synapse_ref.workflow.command import CommandOutcome, run_on_stop
from synapse_ref.workflow.compact_suggestion import CompactSuggestion, should_suggest_compact
from synapse_ref.workflow.format import format_size
from synapse_ref.workflow.on_stop import SubagentStopHook
from synapse_ref.workflow.paths import WorkflowPaths
from synapse_ref.workflow.registry import TIMELINE_EVENTS
from synapse_ref.workflow.state import WorkflowStore
from synapse_ref.workflow.timeline import Clock, Timeline


class StagedWorkflow:
    """The staged-workflow domain below one root (``<root>/sessions/<sessionId>/...``)."""

    def __init__(self, root: Path | str, *, clock: Clock) -> None:
        self.paths = WorkflowPaths(root)
        self._clock = clock
        self.state = WorkflowStore(self.paths, clock)
        self.timeline = Timeline(self.paths, clock)

    @property
    def timeline_events(self) -> Mapping[str, Mapping[str, str]]:
        return TIMELINE_EVENTS

    def should_suggest_compact(
        self,
        *,
        transcript_path: str | os.PathLike[str] | None = None,
        session_id: str | None = None,
        state: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> CompactSuggestion:
        return should_suggest_compact(
            transcript_path=transcript_path,
            session_id=session_id,
            state=state,
            options=options,
            timeline=self.timeline,
            store=self.state,
        )

    def format_size(self, size: int) -> str:
        return format_size(size)

    def on_stop(self, event: Mapping[str, Any]) -> dict[str, str]:
        return {"result": SubagentStopHook(self.state, self.timeline).handle(event).result}

    def on_stop_command(self, stdin: str) -> CommandOutcome:
        return run_on_stop(stdin, root=self.paths.root, clock=self._clock)
