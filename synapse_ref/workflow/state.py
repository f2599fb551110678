"""Workflow state (``workflow.json``): which stages a session's workflow has and how far it got.

The file is JSON with the original plugin's camelCase keys::

    {"sessionId", "workflowType", "createdAt", "currentStage",
     "stages": {"PLAN": {"status": "pending"|"active"|"completed", "result": null|"pass"|..., ...}, ...},
     "activeAgents": {agent: {"stage", "startedAt"}}, "failCount", "rejectCount", "retroCount",
     "featureName"}

Repeated stages get numbered keys in list order (``TEST``, ``TEST:2``); insertion order of ``stages`` is
the workflow order.  Every rewrite holds a file lock and replaces the file atomically, so two hooks
finishing at once cannot lose each other's update.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from filelock import FileLock

from synapse_ref.js_text import json_parse
from synapse_ref.workflow.paths import WorkflowPaths, atomic_write_text, remove_interrupted_writes
from synapse_ref.workflow.registry import STAGES, WORKFLOWS, base_stage
from synapse_ref.workflow.timeline import Clock, iso_timestamp

WorkflowState = dict[str, Any]

STATUSES = ("pending", "active", "completed")


class WorkflowStateError(ValueError):
    """The state file exists but is not a workflow state."""


def stage_keys(stages: Sequence[str]) -> list[str]:
    """``[TEST, DEV, TEST]`` -> ``[TEST, DEV, TEST:2]``."""
    seen: dict[str, int] = {}
    keys = []
    for stage in stages:
        seen[stage] = seen.get(stage, 0) + 1
        keys.append(stage if seen[stage] == 1 else f"{stage}:{seen[stage]}")
    return keys


def new_state(session_id: str, workflow_type: str, stages: Sequence[str], now: str) -> WorkflowState:
    if not stages or not set(stages) <= STAGES.keys():
        raise ValueError(f"not a list of workflow stages: {list(stages)!r}")
    keys = stage_keys(stages)
    entries: dict[str, dict[str, Any]] = {}
    for index, key in enumerate(keys):
        entry: dict[str, Any] = {"status": "pending", "result": None}
        if base_stage(key) == "TEST":
            entry["mode"] = "verify" if "DEV" in stages[:index] else "spec"
        entries[key] = entry
    return {
        "sessionId": session_id,
        "workflowType": workflow_type,
        "createdAt": now,
        "currentStage": keys[0],
        "stages": entries,
        "activeAgents": {},
        "failCount": 0,
        "rejectCount": 0,
        "retroCount": 0,
        "featureName": None,
    }


def pending_stages(state: Mapping[str, Any]) -> list[str]:
    """Stage keys not completed yet (pending or active), in workflow order."""
    return [key for key, entry in state["stages"].items() if entry.get("status") != "completed"]


def find_actual_stage_key(state: Mapping[str, Any], base: str) -> str | None:
    """The stage key an agent of ``base`` is finishing: an active one first, else the first pending one."""
    stages: Mapping[str, Any] = state["stages"]
    candidates = [k for k in stages if base_stage(k) == base]
    for key in candidates:
        if stages[key].get("status") == "active":
            return key
    for key in candidates:
        if stages[key].get("status") == "pending":
            return key
    return None


def complete_stage(state: WorkflowState, stage_key: str, verdict: str, agent: str, now: str) -> None:
    """Mark a stage done with its verdict (every verdict completes it) and move ``currentStage`` on."""
    state.get("activeAgents", {}).pop(agent, None)
    entry = state["stages"][stage_key]
    entry["status"] = "completed"
    entry["result"] = verdict
    entry["completedAt"] = now
    next_pending = next((k for k, e in state["stages"].items() if e.get("status") == "pending"), None)
    if next_pending is not None:
        state["currentStage"] = next_pending
    if verdict == "fail":
        state["failCount"] += 1
    elif verdict == "reject":
        state["rejectCount"] += 1


def read_state_text(path: Path) -> str:
    """``workflow.json`` as the original reads it, ``readFileSync(path, 'utf8')``: a byte that is no UTF-8
    (a feature name pasted in another encoding) becomes U+FFFD instead of making the state unreadable."""
    return path.read_bytes().decode("utf-8", errors="replace")


class WorkflowStore:
    """Reads and rewrites ``workflow.json`` files below a root."""

    def __init__(self, paths: WorkflowPaths, clock: Clock) -> None:
        self.paths = paths
        self._clock = clock

    def path(self, session_id: str) -> Path:
        return self.paths.workflow_file(session_id)

    def init(self, session_id: str, workflow_type: str, stages: Sequence[str] | None = None) -> WorkflowState:
        if stages is None:
            stages = WORKFLOWS[workflow_type].stages  # KeyError names an unknown type
        state = new_state(session_id, workflow_type, list(stages), iso_timestamp(self._clock()))
        with self._lock(session_id):
            self._write(session_id, state)
        return copy.deepcopy(state)

    def read(self, session_id: str) -> WorkflowState | None:
        """The state, or None when the session has no workflow; a damaged file is an error."""
        try:
            return self._load(session_id)
        except FileNotFoundError:
            return None

    def _load(self, session_id: str) -> WorkflowState:
        path = self.path(session_id)
        text = read_state_text(path)
        try:
            state = json_parse(text)  # as JSON.parse: a NaN or Infinity anywhere makes the file no JSON
        except ValueError as exc:
            raise WorkflowStateError(f"{path}: not a workflow state") from exc
        if not isinstance(state, dict) or not isinstance(state.get("stages"), dict):
            raise WorkflowStateError(f"{path}: not a workflow state")
        return state

    def update(self, session_id: str, mutate: Callable[[WorkflowState], None]) -> WorkflowState:
        """Read, change and rewrite the state under the session's lock (no state: FileNotFoundError)."""
        with self._lock(session_id):
            state = self._load(session_id)
            mutate(state)
            self._write(session_id, state)
        return copy.deepcopy(state)

    def set_stage(
        self, session_id: str, stage_key: str, *, status: str, result: str | None = None
    ) -> WorkflowState:
        if status not in STATUSES:
            raise ValueError(f"unknown stage status: {status!r}")

        def mutate(state: WorkflowState) -> None:
            entry = state["stages"][stage_key]  # KeyError names an unknown stage
            entry["status"] = status
            entry["result"] = result
            if status == "completed":
                entry["completedAt"] = iso_timestamp(self._clock())
            else:
                entry.pop("completedAt", None)
            pending = [k for k, e in state["stages"].items() if e.get("status") != "completed"]
            if pending:
                state["currentStage"] = pending[0]

        return self.update(session_id, mutate)

    def _lock(self, session_id: str) -> FileLock:
        """The session's lock; taking it creates the session directory (filelock >= 3.12.3 does)."""
        return FileLock(str(self.paths.session_dir(session_id) / "workflow.json.lock"))

    def _write(self, session_id: str, state: Mapping[str, Any]) -> None:
        """Under the session's lock, so leftovers of a write killed before its rename can go too."""
        remove_interrupted_writes(self.path(session_id))
        atomic_write_text(self.path(session_id), json.dumps(state, ensure_ascii=False, indent=2) + "\n")
