"""The SubagentStop hook: record a finished stage, tell the main agent what comes next, and on a
passing stage suggest ``/compact`` when the transcript has grown large.

The hook receives Claude Code's SubagentStop JSON (``session_id``, ``agent_type``,
``last_assistant_message``, ``transcript_path``; ``CLAUDE_SESSION_ID`` stands in for a missing session
id) and answers ``{"result": text}``.  The verdict comes from the agent's
``<!-- VERDICT: {"result": "..."} -->`` marker, else from the original's keyword rules for the stage.

Unlike the original, a timeline that cannot be written costs only the timeline events (a warning is
logged): the state update and the messages still reach the main agent.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from synapse_ref.js_text import SPACES, json_parse, trim
from synapse_ref.workflow.compact_suggestion import should_suggest_compact
from synapse_ref.workflow.format import format_size
from synapse_ref.workflow.registry import (
    AGENT_STAGES,
    MAX_RETRIES,
    PARALLEL_GROUPS,
    STAGES,
    WORKFLOWS,
    base_stage,
)
from synapse_ref.workflow.state import (
    WorkflowState,
    WorkflowStore,
    complete_stage,
    find_actual_stage_key,
    pending_stages,
)
from synapse_ref.workflow.timeline import Timeline, iso_timestamp

logger = logging.getLogger("synapse.workflow.on_stop")

_VERDICT_MARKER = re.compile(f"<!--{SPACES}VERDICT:{SPACES}" + r"(\{[^}]+\})" + f"{SPACES}-->")
_AGENT_PREFIX = "ot:"
DOUBLE_FAILURE = "⚠️ 並行群組雙重失敗（TEST FAIL + REVIEW REJECT）"
"""Said when a fail follows a reject or a reject a fail (the quality group's two members both failed)."""


@dataclass(frozen=True)
class StopOutcome:
    """What the hook answers (``result``) and, for the operator, why it had nothing to say."""

    result: str
    notices: tuple[str, ...] = field(default=())


def _contains(text: str, words: tuple[str, ...], excluded: tuple[str, ...]) -> bool:
    return any(w in text for w in words) and not any(x in text for x in excluded)


def parse_verdict(output: str, stage: str) -> str:
    """The agent's verdict, lower-cased: the VERDICT marker first, else keyword rules per stage."""
    marker = _VERDICT_MARKER.search(output)
    if marker:
        try:  # as JSON.parse: a marker holding NaN or Infinity is no JSON, so the keyword rules decide
            verdict = json_parse(marker.group(1)).get("result")
        except ValueError:
            verdict = None
        if isinstance(verdict, str) and trim(verdict):
            return trim(verdict).lower()
    text = output.lower()
    if stage in ("REVIEW", "SECURITY", "DB-REVIEW"):
        if _contains(text, ("reject", "拒絕"), ("no reject", "not reject")):
            return "reject"
    elif stage in ("TEST", "QA", "E2E", "BUILD-FIX"):
        if _contains(text, ("fail", "失敗"), ("no fail", "0 fail", "without fail", "failure mode")):
            return "fail"
        error_ok = ("0 error", "no error", "without error", "error handling", "error recovery", "error-free")
        if _contains(text, ("error",), (*error_ok, "error free")):
            return "fail"
    elif stage == "RETRO" and _contains(
        text,
        ("issues", "改善建議", "建議優化"),
        ("no issues", "0 issues", "no significant issues", "without issues"),
    ):
        return "issues"
    return "pass"


def next_stage_hint(state: Mapping[str, Any]) -> str | None:
    """What the main agent should do next, or None when every stage is completed."""
    pending = pending_stages(state)
    if not pending:
        return None
    active = list((state.get("activeAgents") or {}).keys())
    if active:
        return f"等待並行 agent 完成：{', '.join(active)}"
    workflow = WORKFLOWS.get(str(state.get("workflowType")))
    first = pending[0]
    for group in workflow.parallel_groups if workflow else ():
        members = PARALLEL_GROUPS[group]
        run = []
        for key in pending:
            if base_stage(key) not in members:
                break
            run.append(key)
        if len(run) >= 2:
            return "並行委派 " + " + ".join(_stage_title(k) for k in run)
    definition = STAGES[base_stage(first)]
    return f"委派 {definition.emoji} {definition.agent}（{definition.label}）"


def _stage_title(key: str) -> str:
    definition = STAGES[base_stage(key)]
    return f"{definition.emoji} {definition.label}"


def _converged_group(state: Mapping[str, Any], stage_key: str) -> str | None:
    """The parallel group this stage just closed, if it was the group's last open member."""
    workflow = WORKFLOWS.get(str(state.get("workflowType")))
    stages: Mapping[str, Any] = state["stages"]
    for group in workflow.parallel_groups if workflow else ():
        members = PARALLEL_GROUPS[group]
        if base_stage(stage_key) not in members:
            continue
        keys = [k for k in stages if base_stage(k) in members]
        if all(stages[k].get("status") == "completed" for k in keys):
            return group
    return None


class SubagentStopHook:
    """Handles one SubagentStop event against the workflow files of its session."""

    def __init__(self, store: WorkflowStore, timeline: Timeline) -> None:
        self._store = store
        self._timeline = timeline

    def handle(self, event: Mapping[str, Any]) -> StopOutcome:
        session_id = trim(str(event.get("session_id") or os.environ.get("CLAUDE_SESSION_ID", "")))
        agent = trim(str(event.get("agent_type") or "")).removeprefix(_AGENT_PREFIX)
        if not session_id:
            return StopOutcome("", ("no session_id in the SubagentStop event",))
        if not agent:
            return StopOutcome("", ("no agent_type in the SubagentStop event",))
        self._drop_active_agent(session_id)  # whatever the agent: it no longer runs
        base = AGENT_STAGES.get(agent)
        if base is None:
            return StopOutcome("", (f"agent {agent!r} works on no workflow stage",))
        try:
            state = self._store.read(session_id)
        except ValueError as exc:
            return StopOutcome("", (f"cannot read the workflow state: {exc}",))
        if state is None:
            return StopOutcome("", (f"session {session_id!r} has no workflow state",))
        stage_key = find_actual_stage_key(state, base)
        if stage_key is None:
            return StopOutcome("", (f"no open {base} stage in session {session_id!r}",))

        verdict = parse_verdict(str(event.get("last_assistant_message") or ""), base)
        now = iso_timestamp(self._timeline.clock())
        updated = self._store.update(session_id, lambda s: complete_stage(s, stage_key, verdict, agent, now))

        notices: list[str] = []
        emit = _Emitter(self._timeline, session_id, notices)
        if verdict == "fail":
            emit("agent:error", {"agent": agent, "stage": stage_key, "reason": "fail"})
        emit("agent:complete", {"agent": agent, "stage": stage_key, "result": verdict})
        emit("stage:complete", {"stage": stage_key, "result": verdict})

        definition = STAGES[base]
        messages: list[str] = []
        if verdict == "fail":
            messages += self._on_fail(updated, stage_key, definition.emoji, definition.label, emit)
        elif verdict == "reject":
            messages += self._on_reject(updated, emit)
        elif verdict == "issues":
            messages += self._on_issues(session_id, definition.emoji, definition.label)
        else:
            messages += self._on_pass(event, session_id, updated, stage_key, agent, emit)
        if verdict != "fail":
            messages.append(
                "\n💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，"
                f"傳入 STAGE={stage_key} AGENT={agent} SESSION_ID={session_id}）"
            )
        return StopOutcome("\n".join(messages), tuple(notices))

    def _drop_active_agent(self, session_id: str) -> None:
        """As the original, for every agent of a session, before the hook looks for its stage; an id that
        names no session directory (``ValueError``) has no file to remove."""
        with contextlib.suppress(OSError, ValueError):
            self._store.paths.active_agent_file(session_id).unlink()

    def _on_pass(
        self,
        event: Mapping[str, Any],
        session_id: str,
        state: WorkflowState,
        stage_key: str,
        agent: str,
        emit: _Emitter,
    ) -> list[str]:
        definition = STAGES[base_stage(stage_key)]
        messages = [
            f"✅ {definition.emoji} {definition.label}完成",
            f"📊 請更新 TaskList：TaskUpdate status completed（{definition.label}）",
        ]
        group = _converged_group(state, stage_key)
        if group is not None:
            messages.append(f"🔄 並行群組 {group} 全部完成")
            emit("parallel:converge", {"group": group})
        hint = next_stage_hint(state)
        if hint is None:
            messages += ["🎉 所有階段已完成！", "📋 建議：委派 planner 規劃下一批工作（或執行 /ot:plan）"]
            return messages
        messages.append(f"⏭️ 下一步：{hint}")
        transcript = event.get("transcript_path")
        suggestion = should_suggest_compact(
            transcript_path=transcript if isinstance(transcript, str) else None,
            session_id=session_id,
            state=state,
            timeline=self._timeline,
            store=self._store,
        )
        if suggestion["suggest"]:
            size = int(suggestion["transcriptSize"])
            messages.append(
                f"\n💾 transcript 已達 {format_size(size)}，"
                "建議在繼續下一個 stage 前執行 /compact 壓縮 context。"
            )
            emit(
                "session:compact-suggestion",
                {"transcriptSize": size, "reason": suggestion["reason"], "stage": stage_key, "agent": agent},
            )
        return messages

    def _on_fail(
        self, state: WorkflowState, stage_key: str, emoji: str, label: str, emit: _Emitter
    ) -> list[str]:
        fails = state["failCount"]
        if fails >= MAX_RETRIES:
            emit("error:fatal", {"reason": "重試上限", "failCount": fails})
            return [f"⛔ 已達重試上限（{MAX_RETRIES} 次）。請人工介入。"]
        emit("stage:retry", {"stage": stage_key, "failCount": fails})
        if state["rejectCount"] > 0:  # the parallel review rejected too: one fix for both
            return [
                f"❌ {emoji} {label}失敗（{fails}/{MAX_RETRIES}）",
                DOUBLE_FAILURE,
                "⏭️ 協調策略（TEST FAIL > REVIEW REJECT）：委派 DEBUGGER 分析根因 → DEVELOPER 修復"
                "（同時帶入 REVIEW reject 原因）→ 再次並行 [REVIEW + TEST]",
            ]
        return [
            f"❌ {emoji} {label}失敗（{fails}/{MAX_RETRIES}）",
            "⏭️ 下一步：委派 DEBUGGER 分析根因 → DEVELOPER 修復 → TESTER 驗證",
        ]

    def _on_reject(self, state: WorkflowState, emit: _Emitter) -> list[str]:
        """The original says 審查拒絕 (review rejected) whichever reviewing stage rejected: a security or
        database review is a review too, where the fail message names its stage."""
        rejects = state["rejectCount"]
        if rejects >= MAX_RETRIES:
            emit("error:fatal", {"reason": "拒絕上限", "rejectCount": rejects})
            return [f"⛔ 審查拒絕已達上限（{MAX_RETRIES} 次）。請人工介入。"]
        if state["failCount"] > 0:  # a test failed too: its path leads, the reject reason goes along
            return [
                f"🔙 審查拒絕（{rejects}/{MAX_RETRIES}）",
                DOUBLE_FAILURE,
                "⏭️ 協調策略（TEST FAIL > REVIEW REJECT）：等待 TEST 結果，以 TEST FAIL 路徑為主"
                "（DEBUGGER → DEVELOPER → 再次並行 [REVIEW + TEST]），REVIEW reject 原因一併帶入",
            ]
        return [
            f"🔙 審查拒絕（{rejects}/{MAX_RETRIES}）",
            "⏭️ 下一步：委派 DEVELOPER 修復（帶 reject 原因）→ REVIEWER 再審",
        ]

    def _on_issues(self, session_id: str, emoji: str, label: str) -> list[str]:
        def bump(state: WorkflowState) -> None:
            state["retroCount"] += 1

        rounds = self._store.update(session_id, bump)["retroCount"]
        if rounds >= MAX_RETRIES:  # no new round after the last one allowed: finish the workflow
            advice = f"⛔ 已達迭代上限（{MAX_RETRIES} 次），建議繼續完成剩餘 stages（如 DOCS）"
        else:
            advice = "💡 可選：觸發 /ot:auto 新一輪優化，或繼續完成剩餘 stages"
        return [f"{emoji} {label}完成：發現改善建議（retroCount: {rounds}/{MAX_RETRIES}）", advice]


class _Emitter:
    """Emits timeline events for the hook; a failure is logged and noted, never fatal."""

    def __init__(self, timeline: Timeline, session_id: str, notices: list[str]) -> None:
        self._timeline = timeline
        self._session_id = session_id
        self._notices = notices

    def __call__(self, event_type: str, data: Mapping[str, Any]) -> None:
        try:
            self._timeline.emit(self._session_id, event_type, data)
        except Exception as exc:
            logger.warning(
                "timeline event %s for session %s was not recorded: %s", event_type, self._session_id, exc
            )
            self._notices.append(f"timeline event {event_type} was not recorded: {exc}")
