"""Step definitions for the staged workflow: the strategic compact suggestion and the SubagentStop hook.

Every scenario works below its own root (``tmp_path``) with a clock that advances one millisecond per
reading, so timeline order never depends on the wall clock.  Transcripts are sparse files of exactly the
stated size.  "剛完成" (just completed) means the stage and every stage before it are ``completed`` in
the stored state; a hook scenario hands that stage back to the hook (status ``active``) and lets the
hook complete it from a SubagentStop event.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from synapse_spec import cells, contract, fuzz, probes

# The original plugin's agent for each stage: the SubagentStop event names the agent, not the stage.
WF_STAGE_AGENTS = {
    "PLAN": "planner",
    "ARCH": "architect",
    "TEST": "tester",
    "DEV": "developer",
    "REVIEW": "code-reviewer",
    "RETRO": "retrospective",
    "DOCS": "doc-updater",
    "PM": "product-manager",
    "DESIGN": "designer",
    "DEBUG": "debugger",
    "SECURITY": "security-reviewer",
    "DB-REVIEW": "database-reviewer",
    "QA": "qa",
    "E2E": "e2e-runner",
    "BUILD-FIX": "build-error-resolver",
    "REFACTOR": "refactor-cleaner",
}
WF_THRESHOLD_ENV = "SYNAPSE_COMPACT_THRESHOLD_MB"
WF_SUGGESTION_WORDS = ("compact", "壓縮", "/compact")


class WfClock:
    """Moves one millisecond per reading from a fixed instant, until ``stop_at`` freezes it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 7, 0, 0, tzinfo=timezone.utc)
        self.frozen = False

    def stop_at(self, moment: datetime) -> None:
        self.now, self.frozen = moment, True

    def __call__(self) -> datetime:
        if not self.frozen:
            self.now += timedelta(milliseconds=1)
        return self.now


@dataclass
class WfContext:
    workflow: contract.StagedWorkflow
    tmp: Path
    session_id: str = "wf-session-0001"
    transcript: Path | None = None
    call_kwargs: dict[str, Any] = field(default_factory=dict)
    just_completed: tuple[str, str] | None = None
    result: Any = None
    error: BaseException | None = None
    call_options: Mapping[str, Any] | None = None
    hook_stage: str | None = None
    hook_outcome: contract.CommandResult | None = None
    hook_result: str | None = None
    suggestion_event: Mapping[str, Any] | None = None
    registry: Mapping[str, Mapping[str, str]] | None = None
    registry_entry: Mapping[str, str] | None = None
    call_state: dict[str, Any] | None = None
    snapshot: tuple[Any, Any] | None = None
    events_before: int = 0
    clock: WfClock = field(default_factory=WfClock)
    other_home: Path | None = None


@pytest.fixture
def wf_ctx(synapse: contract.Implementation, tmp_path: Path) -> WfContext:
    root = tmp_path / "workflow-home"
    clock = WfClock()
    return WfContext(workflow=synapse.staged_workflow(root, clock=clock), tmp=tmp_path, clock=clock)


# --------------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------------


def wf_expected_keys(stages: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    keys = []
    for stage in stages:
        seen[stage] = seen.get(stage, 0) + 1
        keys.append(stage if seen[stage] == 1 else f"{stage}:{seen[stage]}")
    return keys


def wf_state(ctx: WfContext) -> dict[str, Any]:
    state = ctx.workflow.state.read(ctx.session_id)
    assert state is not None, f"the workflow state of session {ctx.session_id!r} should exist"
    return dict(state)


def wf_stage_keys(ctx: WfContext) -> list[str]:
    return list(wf_state(ctx)["stages"])


def wf_pending(state: Mapping[str, Any]) -> list[str]:
    return [key for key, entry in state["stages"].items() if entry.get("status") != "completed"]


def wf_base(key: str) -> str:
    return key.split(":", 1)[0]


def wf_init(ctx: WfContext, workflow_type: str) -> None:
    ctx.workflow.state.init(ctx.session_id, workflow_type)
    state = wf_state(ctx)
    assert state.get("workflowType") == workflow_type, (
        f"the state should record workflowType {workflow_type!r}"
    )


def wf_complete_through(ctx: WfContext, stage_key: str, verdict: str) -> None:
    """Complete every stage before ``stage_key`` with pass, and ``stage_key`` itself with ``verdict``."""
    keys = wf_stage_keys(ctx)
    assert stage_key in keys, f"the workflow should have a stage {stage_key!r}; it has {keys}"
    for key in keys[: keys.index(stage_key)]:
        ctx.workflow.state.set_stage(ctx.session_id, key, status="completed", result="pass")
    ctx.workflow.state.set_stage(ctx.session_id, stage_key, status="completed", result=verdict)
    entry = wf_state(ctx)["stages"][stage_key]
    assert entry.get("status") == "completed" and entry.get("result") == verdict, (
        f"stage {stage_key} should be stored as completed with result {verdict!r}, got {entry}"
    )
    ctx.just_completed = (stage_key, verdict)


def wf_make_transcript(ctx: WfContext, size: int, name: str = "transcript.jsonl") -> Path:
    path = ctx.tmp / name
    with path.open("wb") as handle:
        handle.truncate(size)
    assert path.stat().st_size == size, f"the transcript should be exactly {size} bytes"
    ctx.transcript = path
    ctx.call_kwargs = {"transcript_path": str(path), "session_id": ctx.session_id}
    return path


def wf_mb(text: str) -> int:
    return round(float(text) * 1_000_000)


def wf_format(size: int) -> str:
    """The spec's own reading of the decimal size format (to recognise the suggestion in messages)."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f}MB"
    if size >= 1_000:
        return f"{int(size / 1_000 + 0.5)}KB"
    return f"{size}B"


def wf_emit(ctx: WfContext, event_type: str, data: Mapping[str, Any]) -> None:
    ctx.workflow.timeline.emit(ctx.session_id, event_type, data)


def wf_completes_after_last_compact(ctx: WfContext) -> int:
    events = ctx.workflow.timeline.query(ctx.session_id)
    compacts = [i for i, e in enumerate(events) if e.get("type") == "session:compact"]
    assert compacts, "the timeline should hold a session:compact event"
    return sum(1 for e in events[compacts[-1] + 1 :] if e.get("type") == "stage:complete")


def wf_call(ctx: WfContext, **overrides: Any) -> Any:
    kwargs = {**ctx.call_kwargs, **overrides}
    return ctx.workflow.should_suggest_compact(**kwargs)


def wf_run_call(ctx: WfContext, options: Mapping[str, Any] | None) -> None:
    ctx.call_options = options
    ctx.result, ctx.error = None, None
    extra: dict[str, Any] = {"options": dict(options)} if options is not None else {}
    if ctx.call_state is not None:
        extra["state"] = ctx.call_state
    try:
        ctx.result = wf_call(ctx, **extra)
    except Exception as exc:
        ctx.error = exc


def wf_result(ctx: WfContext) -> Mapping[str, Any]:
    assert ctx.error is None, f"shouldSuggestCompact should not raise, but raised {ctx.error!r}"
    assert isinstance(ctx.result, Mapping), (
        f"shouldSuggestCompact should return a mapping, got {ctx.result!r}"
    )
    return ctx.result


def wf_armed_session(ctx: WfContext) -> None:
    """A session where only the transcript decides: DEV passed, stages remain, never compacted."""
    wf_init(ctx, "standard")
    wf_complete_through(ctx, "DEV", "pass")
    ctx.call_kwargs = {"session_id": ctx.session_id}


def wf_hook_session(
    ctx: WfContext, stage: str = "DEV", session_id: str | None = None, workflow_type: str = "standard"
) -> None:
    """A workflow whose ``stage`` is being worked on: earlier stages passed, it is active."""
    sid = session_id or ctx.session_id
    store = ctx.workflow.state
    store.init(sid, workflow_type)
    keys = list((store.read(sid) or {}).get("stages", {}))
    assert stage in keys, f"a {workflow_type} workflow should have a stage {stage!r}; it has {keys}"
    for key in keys[: keys.index(stage)]:
        store.set_stage(sid, key, status="completed", result="pass")
    store.set_stage(sid, stage, status="active")
    if session_id is None:
        ctx.hook_stage = stage


def wf_stop_event(ctx: WfContext, stage: str, verdict: str, *, agent_prefix: str = "") -> dict[str, Any]:
    return {
        "session_id": ctx.session_id,
        "hook_event_name": "SubagentStop",
        "agent_type": agent_prefix + WF_STAGE_AGENTS[wf_base(stage)],
        "last_assistant_message": f'階段工作已結束。\n<!-- VERDICT: {{"result": "{verdict.upper()}"}} -->',
        "transcript_path": str(ctx.transcript) if ctx.transcript else "",
        "stop_hook_active": False,
    }


def wf_run_hook(ctx: WfContext, event: Mapping[str, Any]) -> str:
    outcome = ctx.workflow.on_stop_command(json.dumps(event, ensure_ascii=False))
    ctx.hook_outcome = outcome
    assert outcome.exit_code == 0, (
        f"the hook command should exit 0, got {outcome.exit_code}: {outcome.stderr}"
    )
    try:
        answer = json.loads(outcome.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"the hook should print one JSON object, printed {outcome.stdout!r}") from exc
    assert isinstance(answer, dict) and isinstance(answer.get("result"), str), (
        f'the hook should print {{"result": "..."}}, printed {outcome.stdout!r}'
    )
    ctx.hook_result = answer["result"]
    return ctx.hook_result


def wf_lines(text: str) -> list[str]:
    return text.split("\n")


def wf_suggestion_line(ctx: WfContext, result: str) -> int | None:
    """Index of the line that suggests compacting: it names the transcript size and a compact word."""
    assert ctx.transcript is not None
    size_text = wf_format(ctx.transcript.stat().st_size)
    for index, line in enumerate(wf_lines(result)):
        if size_text in line and any(word in line.lower() for word in WF_SUGGESTION_WORDS):
            return index
    return None


def wf_completion_line(result: str) -> int | None:
    return next((i for i, line in enumerate(wf_lines(result)) if "完成" in line), None)


def wf_parse_literal(body: str) -> tuple[dict[str, Any], bool]:
    """``suggest: true, reason: ..., transcriptSize: 6500000`` -> values (``...`` = any) and openness."""
    values: dict[str, Any] = {}
    is_open = False
    for item in (part.strip() for part in body.split(",")):
        if not item:
            continue
        if item == "...":
            is_open = True
            continue
        key, _, raw = (piece.strip() for piece in item.partition(":"))
        if raw == "...":
            values[key] = Ellipsis
        elif raw in ("true", "false"):
            values[key] = raw == "true"
        elif re.fullmatch(r"[\d_]+", raw):
            values[key] = int(raw.replace("_", ""))
        elif re.fullmatch(r"'[^']*'", raw):
            values[key] = raw[1:-1]
        else:
            raise AssertionError(f"the step cannot read the value {raw!r} of {key!r}")
    return values, is_open


# --------------------------------------------------------------------------------------------------------
# Given: workflow state
# --------------------------------------------------------------------------------------------------------


@given(parsers.re(r"一個 (?P<workflow_type>[\w-]+) workflow，stages 為 \[(?P<stages>[^\]]+)\]"))
def wf_given_workflow_with_stages(wf_ctx: WfContext, workflow_type: str, stages: str) -> None:
    wf_init(wf_ctx, workflow_type)
    expected = wf_expected_keys([s.strip() for s in stages.split(",")])
    state = wf_state(wf_ctx)
    assert list(state["stages"]) == expected, (
        f"a {workflow_type} workflow should have the stage keys {expected} in order, "
        f"got {list(state['stages'])}"
    )
    statuses = {k: e.get("status") for k, e in state["stages"].items()}
    assert all(s == "pending" for s in statuses.values()), (
        f"a new workflow should be all pending, got {statuses}"
    )


@given(
    parsers.re(
        r"目前完成了 (?P<stage>[A-Z][A-Z0-9:-]*) stage（verdict: (?P<verdict>\w+)），"
        r"還有 (?P<rest>[A-Z/:-]+) 尚未完成"
    )
)
def wf_given_completed_with_rest(wf_ctx: WfContext, stage: str, verdict: str, rest: str) -> None:
    wf_complete_through(wf_ctx, stage, verdict)
    pending = [wf_base(k) for k in wf_pending(wf_state(wf_ctx))]
    assert pending == rest.split("/"), f"the stages still open should be {rest.split('/')}, got {pending}"


@given(
    parsers.re(
        r"一個 (?P<workflow_type>[\w-]+) workflow 的 (?P<stage>[A-Z][A-Z0-9:-]*) stage 剛完成"
        r"（verdict: (?P<verdict>\w+)）"
    )
)
def wf_given_stage_just_completed(wf_ctx: WfContext, workflow_type: str, stage: str, verdict: str) -> None:
    wf_init(wf_ctx, workflow_type)
    wf_complete_through(wf_ctx, stage, verdict)


@given(parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) 剛完成（verdict: (?P<verdict>\w+)）"))
def wf_given_bare_stage_just_completed(wf_ctx: WfContext, stage: str, verdict: str) -> None:
    wf_complete_through(wf_ctx, stage, verdict)


@given(
    parsers.re(
        r"一個 (?P<workflow_type>[\w-]+) workflow，所有 stage 僅剩 (?P<stage>[A-Z][A-Z0-9:-]*) 尚未完成"
    )
)
def wf_given_only_one_left(wf_ctx: WfContext, workflow_type: str, stage: str) -> None:
    wf_init(wf_ctx, workflow_type)
    for key in wf_stage_keys(wf_ctx):
        if key != stage:
            wf_ctx.workflow.state.set_stage(wf_ctx.session_id, key, status="completed", result="pass")
    pending = wf_pending(wf_state(wf_ctx))
    assert pending == [stage], f"only {stage} should still be open, got {pending}"


@given(
    parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) stage 剛完成（verdict: (?P<verdict>\w+)），無任何 pending stage")
)
def wf_given_last_stage_just_completed(wf_ctx: WfContext, stage: str, verdict: str) -> None:
    wf_complete_through(wf_ctx, stage, verdict)
    pending = wf_pending(wf_state(wf_ctx))
    assert pending == [], f"no stage should be open after {stage}, got {pending}"


@given(parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) 是唯一 stage，完成後無任何 pending stage"))
def wf_given_only_stage(wf_ctx: WfContext, stage: str) -> None:
    state = wf_state(wf_ctx)
    assert list(state["stages"]) == [stage], f"{stage} should be the only stage, got {list(state['stages'])}"
    assert wf_pending(state) == [], f"no stage should be open, got {wf_pending(state)}"


@given("還有多個 pending stage")
def wf_given_several_pending(wf_ctx: WfContext) -> None:
    pending = wf_pending(wf_state(wf_ctx))
    assert len(pending) >= 2, f"several stages should still be open, got {pending}"


@given("還有 pending stage")
def wf_given_some_pending(wf_ctx: WfContext) -> None:
    pending = wf_pending(wf_state(wf_ctx))
    assert pending, "at least one stage should still be open"


@given(parsers.re(r"還有 (?P<names>[A-Z][A-Z0-9:、-]*) 尚未完成"))
def wf_given_named_pending(wf_ctx: WfContext, names: str) -> None:
    pending = [wf_base(k) for k in wf_pending(wf_state(wf_ctx))]
    assert pending == names.split("、"), f"the stages still open should be {names.split('、')}, got {pending}"


# --------------------------------------------------------------------------------------------------------
# Given: transcript and timeline
# --------------------------------------------------------------------------------------------------------


@given(parsers.re(r"transcript 檔案大小為 (?P<size>[\d.]+)MB(?:（(?P<cmp>[<>]) 5MB 閾值）)?"))
def wf_given_transcript(wf_ctx: WfContext, size: str, cmp: str | None) -> None:
    n = wf_mb(size)
    wf_make_transcript(wf_ctx, n)
    if cmp == ">":
        assert n > 5_000_000, f"{n} bytes should be above the 5MB threshold"
    elif cmp == "<":
        assert n < 5_000_000, f"{n} bytes should be below the 5MB threshold"


@given(parsers.re(r"transcript 是指向另一個目錄中 (?P<size>[\d.]+)MB 檔案的符號連結"))
def wf_given_linked_transcript(wf_ctx: WfContext, size: str) -> None:
    """A transcript reached through a link: its size is the size of the file the link leads to."""
    target = wf_ctx.tmp / "moved" / "transcript.jsonl"
    target.parent.mkdir()
    with target.open("wb") as handle:
        handle.truncate(wf_mb(size))
    link = wf_make_transcript(wf_ctx, 0, name="linked-transcript.jsonl")
    link.unlink()
    link.symlink_to(target)
    assert link.is_symlink() and link.stat().st_size == wf_mb(size), f"{link} should link to {target}"


@given(parsers.re(r"timeline 中無任何 `session:compact` 事件(?:（從未 compact 過）)?"))
def wf_given_never_compacted(wf_ctx: WfContext) -> None:
    state = wf_state(wf_ctx)
    completed = [(k, e.get("result")) for k, e in state["stages"].items() if e.get("status") == "completed"]
    for key, result in completed:
        wf_emit(wf_ctx, "stage:complete", {"stage": key, "result": result})
    timeline = wf_ctx.workflow.timeline
    assert timeline.latest(wf_ctx.session_id, "session:compact") is None, (
        "no session:compact should be recorded"
    )
    recorded = timeline.query(wf_ctx.session_id, event_type="stage:complete")
    assert [e.get("stage") for e in recorded] == [k for k, _ in completed], (
        f"the timeline should hold one stage:complete per completed stage, got {recorded}"
    )


@given(
    parsers.re(r"timeline 中有一筆 `session:compact` 事件(?:（在 (?P<before>[A-Z][A-Z0-9:-]*) 之前發生）)?")
)
def wf_given_compacted(wf_ctx: WfContext, before: str | None) -> None:
    state = wf_state(wf_ctx)
    completed = [k for k, e in state["stages"].items() if e.get("status") == "completed"]
    if before is not None:
        assert before in completed, f"{before} should be a completed stage"
        earlier = completed[: completed.index(before)]
    else:
        assert wf_ctx.just_completed is not None, "a stage should have just completed"
        earlier = [k for k in completed if k != wf_ctx.just_completed[0]]
    for key in earlier:
        wf_emit(wf_ctx, "stage:complete", {"stage": key, "result": state["stages"][key].get("result")})
    wf_emit(wf_ctx, "session:compact", {"workflowType": state.get("workflowType"), "currentStage": before})
    compacts = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="session:compact")
    assert len(compacts) == 1, f"the timeline should hold exactly one session:compact, got {compacts}"


@given(
    parsers.re(r"在該事件之後(?:只有|已有|有) (?P<count>\d+) 個 `stage:complete` 事件（(?P<names>[^）]+)）")
)
def wf_given_completes_after_compact(wf_ctx: WfContext, count: str, names: str) -> None:
    keys = names.split("、")
    assert len(keys) == int(count), f"the step lists {keys} but says {count}"
    state = wf_state(wf_ctx)
    for key in keys:
        entry = state["stages"].get(key, {})
        assert entry.get("status") == "completed", f"{key} should be completed in the state, got {entry}"
        wf_emit(wf_ctx, "stage:complete", {"stage": key, "result": entry.get("result")})
    after = wf_completes_after_last_compact(wf_ctx)
    assert after == int(count), f"{count} stage:complete events should follow the compact, found {after}"


@given(parsers.re(r"minStagesSinceCompact 預設為 2(?:（(?P<count>\d+) >= 2）)?"))
def wf_given_default_min_stages(wf_ctx: WfContext, count: str | None) -> None:
    if count is not None:
        after = wf_completes_after_last_compact(wf_ctx)
        assert after == int(count), f"{count} stage:complete events should follow the compact, found {after}"
    explicit = wf_call(wf_ctx, options={"minStagesSinceCompact": 2})
    default = wf_call(wf_ctx)
    assert default == explicit, (
        f"the default minStagesSinceCompact should behave as 2: default gave {default}, "
        f"explicit 2 gave {explicit}"
    )


# --------------------------------------------------------------------------------------------------------
# Given: transcript paths that cannot be used
# --------------------------------------------------------------------------------------------------------


@given("`shouldSuggestCompact` 收到一個不存在的 `transcriptPath`")
def wf_given_missing_path(wf_ctx: WfContext) -> None:
    wf_armed_session(wf_ctx)
    path = wf_ctx.tmp / "no-such-dir" / "transcript.jsonl"
    assert not path.exists(), f"{path} should not exist"
    wf_ctx.call_kwargs["transcript_path"] = str(path)


@given(
    parsers.re(r"`shouldSuggestCompact` 收到 `transcriptPath` 為(?:空字串)? `(?P<value>''|undefined|null)`")
)
def wf_given_empty_path(wf_ctx: WfContext, value: str) -> None:
    wf_armed_session(wf_ctx)
    if value == "''":
        wf_ctx.call_kwargs["transcript_path"] = ""
    elif value == "null":
        wf_ctx.call_kwargs["transcript_path"] = None
    else:
        wf_ctx.call_kwargs.pop("transcript_path", None)


@given("`transcriptPath` 指向一個存在但 statSync 操作會拋出例外的路徑")
def wf_given_unstatable_path(wf_ctx: WfContext) -> None:
    wf_armed_session(wf_ctx)
    regular = wf_make_transcript(wf_ctx, 6_000_000, name="file.txt")
    path = regular / "transcript.jsonl"
    with pytest.raises(OSError):
        os.stat(path)
    wf_ctx.call_kwargs["transcript_path"] = str(path)


@given("timeline 檔案損毀或查詢拋出例外")
def wf_given_timeline_broken(wf_ctx: WfContext) -> None:
    wf_hook_session(wf_ctx, "DEV")
    pending = wf_pending(wf_state(wf_ctx))
    assert "DEV" in pending and len(pending) > 1, f"DEV and later stages should be open, got {pending}"


@given("timeline 檔案的內容是無法解析的行：")
def wf_given_timeline_garbage(wf_ctx: WfContext, docstring: str) -> None:
    path = Path(wf_ctx.workflow.timeline.path(wf_ctx.session_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(docstring + "\n", encoding="utf-8")
    events = wf_ctx.workflow.timeline.query(wf_ctx.session_id)
    assert events == [], f"none of the damaged lines is an event, yet query returned {events}"


@given(parsers.re(r"timeline 末尾另有一行，只有 (?P<chars>U\+[0-9A-F]{4}(?: U\+[0-9A-F]{4})*)"))
def wf_given_timeline_odd_blank_line(wf_ctx: WfContext, chars: str) -> None:
    path = Path(wf_ctx.workflow.timeline.path(wf_ctx.session_id))
    assert path.is_file() and path.read_bytes().endswith(b"\n"), "the timeline should hold whole lines"
    line = "".join(chr(int(code[2:], 16)) for code in chars.split())
    with path.open("ab") as handle:
        handle.write(line.encode("utf-8") + b"\n")


@given("timeline 檔案的路徑是一個目錄，讀取時拋出例外")
def wf_given_timeline_directory(wf_ctx: WfContext) -> None:
    path = Path(wf_ctx.workflow.timeline.path(wf_ctx.session_id))
    path.mkdir(parents=True)
    with pytest.raises(OSError):
        path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------------------
# When / Then: the decision
# --------------------------------------------------------------------------------------------------------


@when(parsers.re(r"`shouldSuggestCompact` (?:以預設選項)?執行|函式執行"))
def wf_when_call_default(wf_ctx: WfContext) -> None:
    wf_run_call(wf_ctx, None)


@when(parsers.re(r"`shouldSuggestCompact` 以 `options: \{ (?P<body>[^}]+) \}` 執行"))
def wf_when_call_with_options(wf_ctx: WfContext, body: str) -> None:
    options, _ = wf_parse_literal(body)
    wf_run_call(wf_ctx, options)


@then(parsers.re(r"回傳 `\{ (?P<body>[^}]*) \}`"))
def wf_then_returns(wf_ctx: WfContext, body: str) -> None:
    result = wf_result(wf_ctx)
    expected, is_open = wf_parse_literal(body)
    for key, value in expected.items():
        assert key in result, f"the result should have {key!r}: {dict(result)}"
        actual = result[key]
        if value is Ellipsis:
            assert isinstance(actual, str) and actual.strip(), (
                f"{key!r} should be a non-empty text, got {actual!r}"
            )
        elif isinstance(value, bool):
            assert actual is value, f"{key!r} should be {value}, got {actual!r}"
        else:
            assert type(actual) is int and actual == value, (
                f"{key!r} should be the number {value}, got {actual!r}"
            )
    if not is_open:
        assert set(result) == set(expected), f"the result should be exactly {{ {body} }}, got {dict(result)}"


def wf_why_last_stage(ctx: WfContext) -> None:
    assert ctx.just_completed is not None
    reopened = copy.deepcopy(wf_state(ctx))
    reopened["stages"][ctx.just_completed[0]].update(status="pending", result=None)
    again = wf_call(ctx, state=reopened)
    assert again.get("suggest") is True, (
        "with the same transcript and the last stage still open the answer should be suggest: true, "
        f"so that only the finished workflow explains suggest: false; got {again}"
    )


def wf_why_cooldown(ctx: WfContext) -> None:
    after = wf_completes_after_last_compact(ctx)
    relaxed = wf_call(ctx, options={"minStagesSinceCompact": after})
    assert relaxed.get("suggest") is True, (
        f"with minStagesSinceCompact {after} (the stages completed since the compact) the answer should be "
        f"suggest: true, so that only the cooldown explains suggest: false; got {relaxed}"
    )


def wf_why_never_compacted(ctx: WfContext) -> None:
    assert ctx.workflow.timeline.latest(ctx.session_id, "session:compact") is None
    strict = wf_call(ctx, options={"minStagesSinceCompact": 99})
    assert strict.get("suggest") is True, (
        "a session never compacted has no cooldown: even minStagesSinceCompact 99 should suggest, "
        f"got {strict}"
    )


def wf_why_custom_threshold(ctx: WfContext) -> None:
    default = wf_call(ctx)
    assert default.get("suggest") is False, f"4MB should not pass the default 5MB threshold, got {default}"
    equal = wf_call(ctx, options={"thresholdBytes": 4_000_000})
    assert equal.get("suggest") is False, f"the size must be strictly above thresholdBytes, got {equal}"


def wf_why_custom_min_stages(ctx: WfContext) -> None:
    default = wf_call(ctx)
    assert default.get("suggest") is False, (
        f"with the default minStagesSinceCompact 2 one completed stage should not suggest, got {default}"
    )


WF_REASONS: dict[str, Callable[[WfContext], None]] = {
    "最後 stage 不需要壓縮空間，workflow 即將結束": wf_why_last_stage,
    "最後 stage，workflow 結束，不需要 compact": wf_why_last_stage,
    "距上次 compact 不足 2 個 stage，避免重複建議": wf_why_cooldown,
    "從未 compact 過，無需 cooldown 檢查": wf_why_never_compacted,
    "4MB > 自訂閾值 3MB": wf_why_custom_threshold,
    "1 >= 自訂 minStagesSinceCompact 1": wf_why_custom_min_stages,
}


@then(parsers.re(r"`suggest` 為 (?P<value>true|false)(?:（(?P<why>.+)）)?"))
def wf_then_suggest(wf_ctx: WfContext, value: str, why: str | None) -> None:
    result = wf_result(wf_ctx)
    assert result.get("suggest") is (value == "true"), f"suggest should be {value}, got {dict(result)}"
    if why is not None:
        assert why in WF_REASONS, f"the step has no check for the reason {why!r}"
        WF_REASONS[why](wf_ctx)


@then(parsers.re(r"`transcriptSize` 等於 (?P<size>\d+)"))
def wf_then_transcript_size(wf_ctx: WfContext, size: str) -> None:
    result = wf_result(wf_ctx)
    actual = result.get("transcriptSize")
    assert type(actual) is int and actual == int(size), (
        f"transcriptSize should be {size} bytes, got {actual!r}"
    )
    assert wf_ctx.transcript is not None and wf_ctx.transcript.stat().st_size == actual, (
        "transcriptSize should be the transcript's size on disk"
    )


@then(parsers.re(r"不拋出任何例外(?:（靜默降級）)?"))
def wf_then_no_exception(wf_ctx: WfContext) -> None:
    assert wf_ctx.error is None, f"shouldSuggestCompact should degrade silently, but raised {wf_ctx.error!r}"
    options: dict[str, Any] = (
        {"options": dict(wf_ctx.call_options)} if wf_ctx.call_options is not None else {}
    )
    if wf_ctx.call_state is not None:
        options["state"] = wf_ctx.call_state
    try:
        again = wf_call(wf_ctx, **options)
    except Exception as exc:
        raise AssertionError(f"calling shouldSuggestCompact again raised {exc!r}") from exc
    assert again == wf_ctx.result, f"a second call should answer the same, got {again} then {wf_ctx.result}"


@then("on-stop.js 主流程不受影響")
def wf_then_hook_unaffected(wf_ctx: WfContext) -> None:
    assert wf_ctx.hook_stage is not None
    result = wf_run_hook(wf_ctx, wf_stop_event(wf_ctx, wf_ctx.hook_stage, "pass"))
    assert wf_completion_line(result) is not None, (
        f"the hook should still answer with the stage's completion line ('…完成'), answered {result!r}"
    )
    assert wf_suggestion_line(wf_ctx, result) is None, (
        f"with a timeline that cannot be read the hook should not suggest compacting, answered {result!r}"
    )
    entry = wf_state(wf_ctx)["stages"][wf_ctx.hook_stage]
    assert entry.get("status") == "completed" and entry.get("result") == "pass", (
        f"the hook should still complete {wf_ctx.hook_stage} with pass, state has {entry}"
    )


# --------------------------------------------------------------------------------------------------------
# The hook: suggestion event and message
# --------------------------------------------------------------------------------------------------------


@given("符合觸發條件（transcript 超閾值、非最後 stage、未剛 compact）")
def wf_given_trigger_conditions(wf_ctx: WfContext) -> None:
    wf_hook_session(wf_ctx, "DEV")
    wf_emit(wf_ctx, "stage:complete", {"stage": "PLAN", "result": "pass"})
    wf_emit(wf_ctx, "session:compact", {"workflowType": "standard", "currentStage": "ARCH"})
    wf_emit(wf_ctx, "stage:complete", {"stage": "ARCH", "result": "pass"})
    wf_emit(wf_ctx, "stage:complete", {"stage": "TEST", "result": "pass"})
    wf_make_transcript(wf_ctx, 6_500_000)
    assert wf_completes_after_last_compact(wf_ctx) >= 2, "at least 2 stages should follow the last compact"
    pending = wf_pending(wf_state(wf_ctx))
    assert [k for k in pending if k != "DEV"], f"stages after DEV should remain open, got {pending}"


@when("`shouldSuggestCompact` 回傳 `suggest: true`")
def wf_when_decision_true(wf_ctx: WfContext) -> None:
    assert wf_ctx.hook_stage is not None
    after_stage = copy.deepcopy(wf_state(wf_ctx))
    after_stage["stages"][wf_ctx.hook_stage].update(status="completed", result="pass")
    wf_ctx.result = wf_call(wf_ctx, state=after_stage)
    assert wf_ctx.result.get("suggest") is True, (
        f"once {wf_ctx.hook_stage} passes, shouldSuggestCompact should answer suggest: true, "
        f"got {wf_ctx.result}"
    )


@when("on-stop.js 的 pass 分支將 compact 建議加入 `messages`")
def wf_when_hook_pass_adds_suggestion(wf_ctx: WfContext) -> None:
    assert wf_ctx.hook_stage is not None
    result = wf_run_hook(wf_ctx, wf_stop_event(wf_ctx, wf_ctx.hook_stage, "pass", agent_prefix="ot:"))
    assert wf_suggestion_line(wf_ctx, result) is not None, (
        f"the pass result should suggest compacting: {result!r}"
    )


@then("timeline 中出現一筆 `session:compact-suggestion` 事件")
def wf_then_one_suggestion_event(wf_ctx: WfContext) -> None:
    events = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="session:compact-suggestion")
    assert len(events) == 1, f"exactly one session:compact-suggestion should be recorded, got {events}"
    wf_ctx.suggestion_event = events[0]


def wf_event(ctx: WfContext) -> Mapping[str, Any]:
    assert ctx.suggestion_event is not None, "a session:compact-suggestion event should have been found"
    return ctx.suggestion_event


@then(parsers.re(r"事件的 `(?P<key>\w+)` 為 `'(?P<value>[^']*)'`"))
def wf_then_event_field(wf_ctx: WfContext, key: str, value: str) -> None:
    actual = wf_event(wf_ctx).get(key)
    assert actual == value, f"the event's {key} should be {value!r}, got {actual!r}"


@then("事件的 `transcriptSize` 等於實際 transcript 大小（bytes）")
def wf_then_event_size(wf_ctx: WfContext) -> None:
    assert wf_ctx.transcript is not None
    actual = wf_event(wf_ctx).get("transcriptSize")
    size = wf_ctx.transcript.stat().st_size
    assert type(actual) is int and actual == size, (
        f"the event's transcriptSize should be {size} bytes, got {actual!r}"
    )


@then("事件的 `stage` 等於觸發時的 stage key（如 `'DEV'`）")
def wf_then_event_stage(wf_ctx: WfContext) -> None:
    actual = wf_event(wf_ctx).get("stage")
    assert actual == wf_ctx.hook_stage == "DEV", f"the event's stage should be 'DEV', got {actual!r}"


@then("事件的 `agent` 等於觸發時的 agent 名稱（如 `'developer'`）")
def wf_then_event_agent(wf_ctx: WfContext) -> None:
    actual = wf_event(wf_ctx).get("agent")
    assert actual == "developer", f"the event's agent should be 'developer' (no 'ot:' prefix), got {actual!r}"


@given(parsers.re(r"觸發 compact 建議（transcript 為 (?P<size>[\d.]+)MB）"))
def wf_given_hook_will_suggest(wf_ctx: WfContext, size: str) -> None:
    wf_hook_session(wf_ctx, "DEV")
    wf_make_transcript(wf_ctx, wf_mb(size))
    assert wf_ctx.workflow.timeline.latest(wf_ctx.session_id, "session:compact") is None


@when("on-stop.js 將建議附加到 `messages` 並輸出 `result`")
def wf_when_hook_outputs(wf_ctx: WfContext) -> None:
    assert wf_ctx.hook_stage is not None
    wf_run_hook(wf_ctx, wf_stop_event(wf_ctx, wf_ctx.hook_stage, "pass"))


def wf_hook_text(ctx: WfContext) -> str:
    assert ctx.hook_result is not None, "the hook should have answered"
    return ctx.hook_result


@then(parsers.re(r"`result` 字串中包含 `'(?P<text>[^']+)'`（格式化後的大小）"))
def wf_then_result_has_size(wf_ctx: WfContext, text: str) -> None:
    result = wf_hook_text(wf_ctx)
    assert text in result, f"the result should show the size {text!r}: {result!r}"


@then("`result` 字串中包含壓縮建議的關鍵詞（如 `'compact'` 或 `'壓縮'` 或 `'/compact'`）")
def wf_then_result_has_keyword(wf_ctx: WfContext) -> None:
    result = wf_hook_text(wf_ctx)
    assert wf_suggestion_line(wf_ctx, result) is not None, (
        "a line of the result should name the transcript size and 'compact', '壓縮' or '/compact': "
        f"{result!r}"
    )


@then("`result` 字串中已包含原有的 pass 完成訊息（`'完成'`）")
def wf_then_result_has_completion(wf_ctx: WfContext) -> None:
    result = wf_hook_text(wf_ctx)
    line = wf_completion_line(result)
    assert line is not None, f"the result should keep the pass completion line ('完成'): {result!r}"
    assert line != wf_suggestion_line(wf_ctx, result), (
        "the completion line should not be the suggestion itself"
    )


@then("compact 建議出現在 pass 完成訊息之後")
def wf_then_suggestion_after_completion(wf_ctx: WfContext) -> None:
    result = wf_hook_text(wf_ctx)
    completion, suggestion = wf_completion_line(result), wf_suggestion_line(wf_ctx, result)
    assert completion is not None and suggestion is not None, f"both lines should be present: {result!r}"
    assert completion < suggestion, (
        f"the suggestion (line {suggestion}) should follow the '完成' line ({completion})"
    )


# --------------------------------------------------------------------------------------------------------
# The hook: verdicts that never suggest
# --------------------------------------------------------------------------------------------------------


@when(parsers.re(r"on-stop.js 的 (?P<branch>fail|reject|issues) 分支執行"))
def wf_when_hook_branch(wf_ctx: WfContext, branch: str) -> None:
    assert wf_ctx.just_completed is not None and wf_ctx.just_completed[1] == branch, (
        f"the scenario should have a stage that just finished with {branch}"
    )
    stage = wf_ctx.just_completed[0]
    wf_ctx.workflow.state.set_stage(wf_ctx.session_id, stage, status="active")
    wf_ctx.hook_stage = stage
    result = wf_run_hook(wf_ctx, wf_stop_event(wf_ctx, stage, branch))
    assert result.strip(), f"the hook should answer the {branch} verdict with a message"
    entry = wf_state(wf_ctx)["stages"][stage]
    assert entry.get("status") == "completed" and entry.get("result") == branch, (
        f"the hook should record {stage} as completed with result {branch!r}, state has {entry}"
    )


@then("`result` 訊息不包含 compact 建議")
def wf_then_no_suggestion_in_result(wf_ctx: WfContext) -> None:
    result = wf_hook_text(wf_ctx)
    assert result.strip(), "the hook should have answered with its verdict message"
    assert wf_ctx.transcript is not None
    size_text = wf_format(wf_ctx.transcript.stat().st_size)
    offending = [w for w in (*WF_SUGGESTION_WORDS, size_text) if w in result.lower() or w in result]
    assert not offending, f"the result should not suggest compacting, but mentions {offending}: {result!r}"


@then("timeline 中無 `session:compact-suggestion` 事件")
def wf_then_no_suggestion_event(wf_ctx: WfContext) -> None:
    timeline = wf_ctx.workflow.timeline
    events = timeline.query(wf_ctx.session_id, event_type="session:compact-suggestion")
    assert events == [], f"no session:compact-suggestion should be recorded, got {events}"
    assert wf_ctx.just_completed is not None
    stage, verdict = wf_ctx.just_completed
    completes = [
        e
        for e in timeline.query(wf_ctx.session_id, event_type="stage:complete")
        if e.get("stage") == stage and e.get("result") == verdict
    ]
    assert completes, f"the hook should have recorded stage:complete for {stage} with result {verdict!r}"


# --------------------------------------------------------------------------------------------------------
# formatSize through the hook
# --------------------------------------------------------------------------------------------------------


@given(
    parsers.re(
        r"compact 建議觸發，transcriptSize 為 (?P<size>[\d_]+) bytes"
        r"(?:（假設閾值調低至 (?P<threshold>\d+) ?(?P<unit>KB|bytes)）)?"
    )
)
def wf_given_hook_suggests_size(
    wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch, size: str, threshold: str | None, unit: str | None
) -> None:
    if threshold is not None:
        limit = int(threshold) * (1_000 if unit == "KB" else 1)
        monkeypatch.setenv(WF_THRESHOLD_ENV, repr(limit / 1_000_000))
    wf_hook_session(wf_ctx, "DEV")
    wf_make_transcript(wf_ctx, int(size.replace("_", "")))
    wf_run_hook(wf_ctx, wf_stop_event(wf_ctx, "DEV", "pass"))
    events = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="session:compact-suggestion")
    assert len(events) == 1, f"the hook should have suggested compacting once, recorded {events}"


@then(parsers.re(r"result 訊息中顯示 `'(?P<text>[^']+)'`"))
def wf_then_result_shows(wf_ctx: WfContext, text: str) -> None:
    result = wf_hook_text(wf_ctx)
    lines = [line for line in wf_lines(result) if text in line]
    assert any(any(w in line.lower() for w in WF_SUGGESTION_WORDS) for line in lines), (
        f"the compact suggestion in the result should show {text!r}: {result!r}"
    )


@then(parsers.re(r"`formatSize\(transcriptSize\)` 回傳同一個字串 `'(?P<text>[^']+)'`"))
def wf_then_format_size(wf_ctx: WfContext, text: str) -> None:
    assert wf_ctx.transcript is not None
    actual = wf_ctx.workflow.format_size(wf_ctx.transcript.stat().st_size)
    assert actual == text, f"formatSize should give {text!r}, got {actual!r}"


# --------------------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------------------


@given("`registry.js` 的 `timelineEvents` 物件")
def wf_given_registry(wf_ctx: WfContext) -> None:
    wf_ctx.registry = wf_ctx.workflow.timeline_events
    assert isinstance(wf_ctx.registry, Mapping) and wf_ctx.registry, (
        "timelineEvents should be a non-empty mapping"
    )


@when(parsers.re(r"讀取 `timelineEvents\['(?P<key>[^']+)'\]`"))
def wf_when_read_registry(wf_ctx: WfContext, key: str) -> None:
    assert wf_ctx.registry is not None
    assert key in wf_ctx.registry, f"timelineEvents should define {key!r}; it has {sorted(wf_ctx.registry)}"
    wf_ctx.registry_entry = wf_ctx.registry[key]


@then(parsers.re(r"取得 `\{ (?P<body>[^}]+) \}`"))
def wf_then_registry_entry(wf_ctx: WfContext, body: str) -> None:
    expected, _ = wf_parse_literal(body)
    assert wf_ctx.registry_entry is not None
    assert dict(wf_ctx.registry_entry) == expected, (
        f"the entry should be {expected}, got {wf_ctx.registry_entry}"
    )


@then(parsers.re(r"`emit\(sessionId, '(?P<event_type>[^']+)', \.\.\.\)` 不拋出 `'(?P<message>[^']+)'` 錯誤"))
def wf_then_emit_accepted(wf_ctx: WfContext, event_type: str, message: str) -> None:
    data = {"transcriptSize": 6_500_000, "stage": "DEV", "agent": "developer"}
    try:
        event = wf_ctx.workflow.timeline.emit(wf_ctx.session_id, event_type, data)
    except Exception as exc:
        raise AssertionError(f"emit({event_type!r}) should be accepted, raised {exc!r}") from exc
    assert event.get("type") == event_type and event.get("label") == "Compact 建議", f"emit returned {event}"
    stored = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type=event_type)
    assert len(stored) == 1 and stored[0].get("category") == "session", (
        f"the timeline should hold it: {stored}"
    )
    assert all(stored[0].get(k) == v for k, v in data.items()), (
        f"the event should carry its data: {stored[0]}"
    )


@then(parsers.re(r"`emit\(sessionId, '(?P<event_type>[^']+)', \.\.\.\)` 拋出 `'(?P<message>[^']+)'` 錯誤"))
def wf_then_emit_refused(wf_ctx: WfContext, event_type: str, message: str) -> None:
    with pytest.raises(Exception) as caught:
        wf_ctx.workflow.timeline.emit(wf_ctx.session_id, event_type, {"stage": "DEV"})
    assert message in str(caught.value), f"the error should say {message!r}, said {str(caught.value)!r}"
    stored = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type=event_type)
    assert stored == [], f"an unknown event type should not be written, found {stored}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: defects of the original that the spec pins
# --------------------------------------------------------------------------------------------------------


@given(parsers.re(r"workflow state 的 `activeAgents` 仍殘留 `(?P<agent>[\w-]+)` 的紀錄"))
def wf_given_stale_active_agent(wf_ctx: WfContext, agent: str) -> None:
    state = copy.deepcopy(wf_state(wf_ctx))
    state.setdefault("activeAgents", {})[agent] = {"stage": "PLAN", "startedAt": "2026-03-01T06:59:00.000Z"}
    assert wf_pending(state) == [], f"every stage should be completed, got {wf_pending(state)}"
    wf_ctx.call_state = state


@when("`shouldSuggestCompact` 以該 state 執行")
def wf_when_call_with_state(wf_ctx: WfContext) -> None:
    assert wf_ctx.call_state is not None, "a state should have been prepared"
    wf_run_call(wf_ctx, None)


@given("時鐘停住，之後寫入的事件都帶有同一個時間")
def wf_given_clock_stopped(wf_ctx: WfContext) -> None:
    moment = wf_ctx.clock()
    wf_ctx.clock.stop_at(moment)
    assert wf_ctx.clock() == wf_ctx.clock() == moment, "the stopped clock should keep giving one instant"


@then("timeline 中的事件都帶有同一個時間")
def wf_then_one_timestamp(wf_ctx: WfContext) -> None:
    events = wf_ctx.workflow.timeline.query(wf_ctx.session_id)
    stamps = {e.get("ts") for e in events}
    assert len(events) >= 2 and len(stamps) == 1, (
        f"every event should carry the stopped clock's time, got {sorted(map(str, stamps))} "
        f"over {len(events)} events"
    )


@given(parsers.re(r"timeline 最多保留 (?P<count>\d+) 行（`SYNAPSE_TIMELINE_MAX_LINES=(?P<value>\d+)`）"))
def wf_given_timeline_bound(monkeypatch: pytest.MonkeyPatch, count: str, value: str) -> None:
    assert count == value, "the sentence and the setting should name the same bound"
    monkeypatch.setenv("SYNAPSE_TIMELINE_MAX_LINES", value)


@given(parsers.re(r"之後又記錄了 (?P<count>\d+) 筆 `(?P<event_type>[\w:-]+)` 事件"))
def wf_given_more_events(wf_ctx: WfContext, count: str, event_type: str) -> None:
    for n in range(int(count)):
        wf_emit(wf_ctx, event_type, {"tool": "Bash", "error": f"exit status {n + 1}"})


def wf_timeline_lines(ctx: WfContext) -> list[str]:
    path = Path(ctx.workflow.timeline.path(ctx.session_id))
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@then(parsers.re(r"timeline 檔案不超過 (?P<count>\d+) 行"))
def wf_then_timeline_bounded(wf_ctx: WfContext, count: str) -> None:
    lines = wf_timeline_lines(wf_ctx)
    assert 0 < len(lines) <= int(count), f"the timeline should keep at most {count} lines, has {len(lines)}"


@given(
    parsers.re(
        r"timeline 先後記錄了 trigger 為 (?P<first>\w+) 與 (?P<second>\w+) 的兩筆 `session:compact` 事件，"
        r"之後又記錄了 (?P<count>\d+) 筆 `tool:failure` 事件"
    )
)
def wf_given_two_compacts(wf_ctx: WfContext, first: str, second: str, count: str) -> None:
    wf_emit(wf_ctx, "session:compact", {"trigger": first})
    wf_emit(wf_ctx, "stage:complete", {"stage": "DEV", "result": "pass"})
    wf_emit(wf_ctx, "session:compact", {"trigger": second})
    for n in range(int(count)):
        wf_emit(wf_ctx, "tool:failure", {"tool": "Bash", "n": n})


@then(parsers.re(r"timeline 中唯一的 `session:compact` 事件是 trigger 為 (?P<trigger>\w+) 的那一筆"))
def wf_then_kept_compact(wf_ctx: WfContext, trigger: str) -> None:
    compacts = wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="session:compact")
    assert [e.get("trigger") for e in compacts] == [trigger], (
        f"trimming should keep exactly the session:compact event with trigger {trigger!r}, got {compacts}"
    )


@then("timeline 仍保留最後一筆 `session:compact` 事件")
def wf_then_compact_kept(wf_ctx: WfContext) -> None:
    latest = wf_ctx.workflow.timeline.latest(wf_ctx.session_id, "session:compact")
    assert latest is not None, "trimming the timeline should keep the latest session:compact event"


@when(parsers.re(r"以帶有 `type: '(?P<value>[^']+)'` 的資料 emit `(?P<event_type>[\w:-]+)`"))
def wf_when_emit_with_reserved_key(wf_ctx: WfContext, value: str, event_type: str) -> None:
    wf_ctx.error = None
    try:
        wf_ctx.workflow.timeline.emit(wf_ctx.session_id, event_type, {"type": value, "reason": "agent 衝突"})
    except Exception as exc:  # refusing the data is one correct answer
        wf_ctx.error = exc


def wf_raw_events(ctx: WfContext) -> list[dict[str, Any]]:
    path = Path(ctx.workflow.timeline.path(ctx.session_id))
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@then(parsers.re(r"timeline 中不出現 type 為 `(?P<value>[^`]+)` 的事件"))
def wf_then_type_not_overridden(wf_ctx: WfContext, value: str) -> None:
    events = wf_raw_events(wf_ctx)
    assert all(e.get("type") != value for e in events), f"the data must not replace the event type: {events}"
    if wf_ctx.error is None:
        assert events, "when emit accepts the data, the event should be recorded under its own type"


@then("timeline 中每一筆事件的 `type`、`category`、`label` 都與 registry 一致")
def wf_then_events_match_registry(wf_ctx: WfContext) -> None:
    registry = wf_ctx.workflow.timeline_events
    for event in wf_raw_events(wf_ctx):
        definition = registry.get(event.get("type", ""))
        assert definition is not None, f"{event} has a type the registry does not define"
        assert (event.get("category"), event.get("label")) == (definition["category"], definition["label"]), (
            f"{event} should carry the registry's category and label {dict(definition)}"
        )


def wf_comparable(result: str, session_id: str) -> list[str]:
    return [line.replace(session_id, "<sid>") for line in wf_lines(result) if line.strip()]


@then("`result` 除了 compact 建議外與 timeline 正常時的 `result` 相同")
def wf_then_result_as_if_healthy(wf_ctx: WfContext) -> None:
    assert wf_ctx.hook_stage is not None and wf_ctx.transcript is not None
    broken = wf_hook_text(wf_ctx)
    healthy_id = "wf-session-healthy"
    wf_hook_session(wf_ctx, wf_ctx.hook_stage, session_id=healthy_id)
    event = {**wf_stop_event(wf_ctx, wf_ctx.hook_stage, "pass"), "session_id": healthy_id}
    healthy = wf_ctx.workflow.on_stop(event)["result"]
    suggestion = wf_suggestion_line(wf_ctx, healthy)
    assert suggestion is not None, f"with a healthy timeline the hook should suggest compacting: {healthy!r}"
    expected = wf_comparable(
        "\n".join(line for i, line in enumerate(wf_lines(healthy)) if i != suggestion), healthy_id
    )
    assert wf_comparable(broken, wf_ctx.session_id) == expected, (
        f"an unwritable timeline should cost only the suggestion: got {broken!r}, healthy gave {healthy!r}"
    )


@then("日誌記錄 warning：timeline 事件未寫入")
def wf_then_warning_logged(caplog: pytest.LogCaptureFixture) -> None:
    warnings = probes.implementation_records(caplog.records, logging.WARNING)
    assert warnings, (
        "a WARNING from a synapse.* logger should report the timeline events that were not written"
    )


@then(parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) stage 在 workflow state 中為 completed（(?P<verdict>\w+)）"))
def wf_then_stage_completed(wf_ctx: WfContext, stage: str, verdict: str) -> None:
    entry = wf_state(wf_ctx)["stages"][stage]
    assert entry.get("status") == "completed" and entry.get("result") == verdict, (
        f"{stage} should be completed with {verdict!r}, state has {entry}"
    )


@given(parsers.re(r"一個 (?P<workflow_type>[\w-]+) workflow 的 (?P<stage>[A-Z][A-Z0-9:-]*) stage 正在進行"))
def wf_given_stage_in_progress(wf_ctx: WfContext, workflow_type: str, stage: str) -> None:
    wf_hook_session(wf_ctx, stage, workflow_type=workflow_type)
    wf_ctx.snapshot = (wf_state(wf_ctx), wf_raw_events(wf_ctx))


WF_BAD_INPUTS: dict[str, Callable[[WfContext], str]] = {
    "空白": lambda ctx: "  \n",
    "不完整的 JSON": lambda ctx: '{"session_id": "' + ctx.session_id + '", "agent_type": ',
    "JSON 陣列": lambda ctx: json.dumps([wf_stop_event(ctx, "DEV", "pass")]),
    "未知 session 的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "session_id": "wf-session-unknown"}
    ),
    "`ot:grader` 的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "agent_type": "ot:grader"}
    ),
    "`other:developer` 的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "agent_type": "other:developer"}
    ),
    "沒有 session_id 的 SubagentStop 事件": lambda ctx: json.dumps(
        {k: v for k, v in wf_stop_event(ctx, "DEV", "pass").items() if k != "session_id"}
    ),
    "沒有 agent_type 的 SubagentStop 事件": lambda ctx: json.dumps(
        {k: v for k, v in wf_stop_event(ctx, "DEV", "pass").items() if k != "agent_type"}
    ),
    "session_id 含路徑字元的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "session_id": f"../{ctx.session_id}"}
    ),
    "`planner` 的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "agent_type": "planner"}
    ),
    # json.dumps writes the float as the bare word NaN, which JSON.parse refuses.
    "欄位帶有 NaN 的 SubagentStop 事件": lambda ctx: json.dumps(
        {**wf_stop_event(ctx, "DEV", "pass"), "duration_ms": float("nan")}
    ),
}


@when(parsers.re(r"hook 指令從 stdin 讀到(?P<what>.+?)(?P<empty_env>，而 CLAUDE_SESSION_ID 為空字串)?"))
def wf_when_bad_stdin(
    wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch, what: str, empty_env: str | None
) -> None:
    assert what in WF_BAD_INPUTS, f"the step has no input called {what!r}"
    if empty_env:
        monkeypatch.setenv("CLAUDE_SESSION_ID", "")  # set, but to nothing
    else:
        monkeypatch.delenv("CLAUDE_SESSION_ID", raising=False)
    wf_ctx.hook_outcome = wf_ctx.workflow.on_stop_command(WF_BAD_INPUTS[what](wf_ctx))


def wf_outcome(ctx: WfContext) -> contract.CommandResult:
    assert ctx.hook_outcome is not None, "the hook command should have run"
    return ctx.hook_outcome


@then('stdout 是 `{"result": ""}` 且結束碼為 0')
def wf_then_empty_result(wf_ctx: WfContext) -> None:
    outcome = wf_outcome(wf_ctx)
    assert outcome.exit_code == 0, f"the hook should exit 0, got {outcome.exit_code}"
    try:
        answer = json.loads(outcome.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"stdout should be JSON, got {outcome.stdout!r}") from exc
    assert answer == {"result": ""}, f'stdout should be {{"result": ""}}, got {outcome.stdout!r}'


@then("stderr 說明原因且不含 traceback")
def wf_then_stderr_reason(wf_ctx: WfContext) -> None:
    stderr = wf_outcome(wf_ctx).stderr
    assert stderr.strip(), "stderr should say why the hook had nothing to answer"
    assert "Traceback" not in stderr, f"stderr should not hold a traceback: {stderr}"
    assert stderr.endswith("\n") and all(line.strip() for line in stderr.splitlines()), (
        f"stderr should be lines of text, each ending with a newline: {stderr!r}"
    )


@then("hook 的 stdout 是以換行結尾的一行 JSON，文字原樣輸出而不跳脫")
def wf_then_stdout_verbatim(wf_ctx: WfContext) -> None:
    stdout = wf_outcome(wf_ctx).stdout
    assert stdout.endswith("\n") and stdout.count("\n") == 1, f"stdout should be one line: {stdout!r}"
    result = json.loads(stdout)["result"]
    first = wf_lines(result)[0]
    assert first.strip() and first in stdout and "\\u" not in stdout, (
        f"stdout should carry the text as it is, not as \\u escapes: {stdout!r}"
    )


@then("workflow state 與 timeline 都沒有改變")
def wf_then_nothing_changed(wf_ctx: WfContext) -> None:
    assert wf_ctx.snapshot is not None
    state, events = wf_ctx.snapshot
    assert wf_state(wf_ctx) == state, "input the hook cannot place must not change the workflow state"
    assert wf_raw_events(wf_ctx) == events, "input the hook cannot place must not add timeline events"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: the hook's exact answers, its timeline events and the size format
# --------------------------------------------------------------------------------------------------------


@then("`formatSize` 依下表格式化位元組數：")
def wf_then_format_table(wf_ctx: WfContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["bytes", "text"], f"the table should have the columns bytes and text, has {header}"
    wrong = {
        int(size): (text, actual)
        for size, text in rows
        if (actual := wf_ctx.workflow.format_size(int(size))) != text
    }
    assert not wrong, f"formatSize gave (expected, actual) {wrong}"


def wf_agent_event(ctx: WfContext, agent: str, message: str) -> dict[str, Any]:
    return {
        "session_id": ctx.session_id,
        "hook_event_name": "SubagentStop",
        "agent_type": agent,
        "last_assistant_message": message,
        "transcript_path": str(ctx.transcript) if ctx.transcript else "",
        "stop_hook_active": False,
    }


def wf_verdict_message(verdict: str) -> str:
    return f'工作已結束。\n<!-- VERDICT: {{"result": "{verdict}"}} -->'


@when(parsers.re(r"SubagentStop hook 收到 `(?P<agent>[\w:-]+)` 的結束事件，VERDICT 為 (?P<verdict>\w+)"))
def wf_when_agent_stops(wf_ctx: WfContext, agent: str, verdict: str) -> None:
    wf_ctx.events_before = len(wf_raw_events(wf_ctx))
    wf_run_hook(wf_ctx, wf_agent_event(wf_ctx, agent, wf_verdict_message(verdict)))


@then("hook 的 `result` 逐行為：")
def wf_then_result_lines(wf_ctx: WfContext, docstring: str) -> None:
    expected = docstring.replace("<sid>", wf_ctx.session_id).split("\n")
    actual = wf_lines(wf_hook_text(wf_ctx))
    assert actual == expected, f"the hook should answer the lines\n{expected}\nbut answered\n{actual}"


@then("timeline 依序新增了下列事件：")
def wf_then_new_events(wf_ctx: WfContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["type", "data"], f"the table should have the columns type and data, has {header}"
    expected = [(event_type, json.loads(data)) for event_type, data in rows]
    registry = wf_ctx.workflow.timeline_events
    new = wf_raw_events(wf_ctx)[wf_ctx.events_before :]
    actual = [
        (e.get("type"), {k: v for k, v in e.items() if k not in ("ts", "type", "category", "label")})
        for e in new
    ]
    assert actual == expected, f"the hook should add the events\n{expected}\nbut added\n{actual}"
    for event in new:
        definition = registry[event["type"]]
        assert (event.get("category"), event.get("label")) == (definition["category"], definition["label"]), (
            f"{event} should carry the registry's category and label"
        )
        assert isinstance(event.get("ts"), str) and event["ts"], f"{event} should carry its time"


@then(parsers.re(r"workflow state 的 `currentStage` 為 (?P<stage>[A-Z][A-Z0-9:-]*)"))
def wf_then_current_stage(wf_ctx: WfContext, stage: str) -> None:
    actual = wf_state(wf_ctx).get("currentStage")
    assert actual == stage, f"currentStage should move to {stage!r}, is {actual!r}"


@then(parsers.re(r"workflow state 的 (?P<key>failCount|rejectCount|retroCount) 為 (?P<count>\d+)"))
def wf_then_state_counter(wf_ctx: WfContext, key: str, count: str) -> None:
    actual = wf_state(wf_ctx).get(key)
    assert actual == int(count), f"{key} should be {count}, is {actual!r}"


def wf_write_state(ctx: WfContext, state: Mapping[str, Any]) -> None:
    path = Path(ctx.workflow.state.path(ctx.session_id))
    path.write_text(json.dumps(state, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert wf_state(ctx) == state, "the store should read back the state written to workflow.json"


@given(parsers.re(r"(?P<others>[\w -]+ 仍在進行 [A-Z][A-Z0-9:、 \w-]*)（記錄於 `activeAgents`）"))
def wf_given_other_agents_active(wf_ctx: WfContext, others: str) -> None:
    assert wf_ctx.hook_stage is not None, "a stage should be in progress"
    started = "2026-03-01T06:59:00.000Z"
    active: dict[str, Any] = {}
    for pair in others.split("、"):
        agent, _, stage = pair.partition(" 仍在進行 ")
        wf_ctx.workflow.state.set_stage(wf_ctx.session_id, stage, status="active")
        active[agent] = {"stage": wf_base(stage), "startedAt": started}
    own = wf_base(wf_ctx.hook_stage)
    active[WF_STAGE_AGENTS[own]] = {"stage": own, "startedAt": started}
    state = wf_state(wf_ctx)
    state["activeAgents"] = active
    wf_write_state(wf_ctx, state)


@then(parsers.re(r"`activeAgents` 只剩 (?P<agents>[\w、-]+)"))
def wf_then_active_agents(wf_ctx: WfContext, agents: str) -> None:
    active = wf_state(wf_ctx).get("activeAgents")
    assert isinstance(active, Mapping) and list(active) == agents.split("、"), (
        f"the finished agent should leave activeAgents, which should hold only {agents}: {active}"
    )


@given(
    parsers.re(
        r"(?P<stage>[A-Z][A-Z0-9:-]*) 已經以 (?P<verdict>FAIL|REJECT|ISSUES) 結束 (?P<count>\d+) 次，"
        r"每次都重新開始"
    )
)
def wf_given_earlier_rounds(wf_ctx: WfContext, stage: str, verdict: str, count: str) -> None:
    agent = WF_STAGE_AGENTS[wf_base(stage)]
    for _ in range(int(count)):
        wf_run_hook(wf_ctx, wf_agent_event(wf_ctx, agent, wf_verdict_message(verdict)))
        entry = wf_state(wf_ctx)["stages"][stage]
        assert entry.get("result") == verdict.lower(), f"{stage} should end with {verdict}, state has {entry}"
        wf_ctx.workflow.state.set_stage(wf_ctx.session_id, stage, status="active")


@when(parsers.re(r"SubagentStop hook 收到 `(?P<agent>[\w:-]+)` 的結束事件，最後訊息為「(?P<message>.+)」"))
def wf_when_agent_stops_with(wf_ctx: WfContext, agent: str, message: str) -> None:
    wf_ctx.events_before = len(wf_raw_events(wf_ctx))
    wf_run_hook(wf_ctx, wf_agent_event(wf_ctx, agent, cells.expand(message)))  # {U+FEFF}


@given(parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) stage 卻仍為 pending（尚未開始）"))
def wf_given_stage_still_pending(wf_ctx: WfContext, stage: str) -> None:
    wf_ctx.workflow.state.set_stage(wf_ctx.session_id, stage, status="pending")
    assert wf_state(wf_ctx)["stages"][stage].get("status") == "pending", f"{stage} should be pending"


@then(parsers.re(r"(?P<stage>[A-Z][A-Z0-9:-]*) stage 仍為 pending，timeline 沒有它的 `stage:complete` 事件"))
def wf_then_stage_still_pending(wf_ctx: WfContext, stage: str) -> None:
    entry = wf_state(wf_ctx)["stages"][stage]
    assert entry.get("status") == "pending", f"{stage} should still be pending, state has {entry}"
    completes = [
        e
        for e in wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="stage:complete")
        if e.get("stage") == stage
    ]
    assert completes == [], f"no stage:complete event should name {stage}, got {completes}"


@then(parsers.re(r"hook 記錄 (?P<stage>[A-Z][A-Z0-9:-]*) 的結果為 (?P<verdict>\w+)"))
def wf_then_recorded_verdict(wf_ctx: WfContext, stage: str, verdict: str) -> None:
    entry = wf_state(wf_ctx)["stages"][stage]
    assert entry.get("status") == "completed" and entry.get("result") == verdict, (
        f"{stage} should be completed with result {verdict!r}, state has {entry}"
    )
    completes = [
        e.get("result")
        for e in wf_ctx.workflow.timeline.query(wf_ctx.session_id, event_type="stage:complete")
        if e.get("stage") == stage
    ]
    assert completes == [verdict], f"one stage:complete for {stage} with result {verdict!r}, got {completes}"


@given("`SYNAPSE_WORKFLOW_HOME` 指向場景目錄中另一個空的目錄")
def wf_given_other_workflow_home(wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch) -> None:
    wf_ctx.other_home = wf_ctx.tmp / "other-workflow-home"
    wf_ctx.other_home.mkdir()
    monkeypatch.setenv("SYNAPSE_WORKFLOW_HOME", str(wf_ctx.other_home))


@then("`SYNAPSE_WORKFLOW_HOME` 指向的目錄仍是空的")
def wf_then_other_home_empty(wf_ctx: WfContext) -> None:
    assert wf_ctx.other_home is not None
    found = sorted(str(p.relative_to(wf_ctx.other_home)) for p in wf_ctx.other_home.rglob("*"))
    assert not found, (
        f"a workflow given its root should write nothing under SYNAPSE_WORKFLOW_HOME, found {found}"
    )


@given(parsers.re(r"環境變數 CLAUDE_SESSION_ID 是該 session 的 id，前後帶有空白"))
def wf_given_session_env(wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_SESSION_ID", f"  {wf_ctx.session_id}\n")


@when(
    parsers.re(
        r"SubagentStop hook 收到(?P<how>沒有 session_id |沒有 transcript_path | session_id 為空字串)的 "
        r"`(?P<agent>[\w:-]+)` 結束事件，VERDICT 為 (?P<verdict>\w+)"
    )
)
def wf_when_agent_stops_without_field(wf_ctx: WfContext, how: str, agent: str, verdict: str) -> None:
    event = wf_agent_event(wf_ctx, agent, wf_verdict_message(verdict))
    if how.strip() == "session_id 為空字串":
        event["session_id"] = ""
    else:
        del event[how.strip().removeprefix("沒有 ")]  # the key itself is absent, not empty
    wf_ctx.events_before = len(wf_raw_events(wf_ctx))
    wf_run_hook(wf_ctx, event)


@then(parsers.re(r"hook 的 `result` 第一行為「(?P<line>.+)」"))
def wf_then_first_line(wf_ctx: WfContext, line: str) -> None:
    first = wf_lines(wf_hook_text(wf_ctx))[0]
    assert first == line, f"the result should start with {line!r}, starts with {first!r}"


@given(
    parsers.re(r"該 session 的 workflow.json (?P<damage>被截斷成不完整的 JSON|中每一筆 stage 紀錄都不是物件)")
)
def wf_given_damaged_state(wf_ctx: WfContext, damage: str) -> None:
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id))
    text = path.read_text(encoding="utf-8")
    if damage.startswith("被截斷"):
        path.write_text(text[: len(text) // 2], encoding="utf-8")
    else:
        state = json.loads(text)
        state["stages"] = {key: str(entry.get("status")) for key, entry in state["stages"].items()}
        path.write_text(json.dumps(state, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    wf_ctx.snapshot = (path.read_bytes(), wf_raw_events(wf_ctx))


@given(parsers.re(r"該 session 的 workflow.json 中 featureName 是以 Latin-1 寫下的 `(?P<name>[^`]+)`"))
def wf_given_latin1_feature_name(wf_ctx: WfContext, name: str) -> None:
    """The name's UTF-8 bytes stand in the file as Latin-1 ones (``é`` as the single byte 0xE9), which is
    no UTF-8: the rest of the file stays as the workflow wrote it."""
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id))
    state = json.loads(path.read_text(encoding="utf-8"))
    state["featureName"] = "\u0000feature-name\u0000"
    text = json.dumps(state, ensure_ascii=False, indent=2) + "\n"
    marker = json.dumps(state["featureName"])
    before, after = text.encode("utf-8").split(marker.encode("ascii"))
    data = before + b'"' + name.encode("latin-1") + b'"' + after
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        raise AssertionError(f"the name {name!r} should make the file no UTF-8")
    path.write_bytes(data)


@then(parsers.re(r"workflow.json 中 featureName 讀作 `(?P<name>[^`]+)`"))
def wf_then_feature_name(wf_ctx: WfContext, name: str) -> None:
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id))
    data = path.read_bytes()
    try:
        state = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise AssertionError(
            f"the hook should rewrite workflow.json as UTF-8 JSON: {exc}; {data[:200]!r}"
        ) from exc
    expected, got = cells.expand(name), state.get("featureName")
    assert got == expected, (
        f"featureName should read {expected!r} (a byte that is no UTF-8 as U+FFFD), got {got!r}"
    )


@then("workflow.json 的內容沒有改變，timeline 沒有新事件")
def wf_then_files_untouched(wf_ctx: WfContext) -> None:
    assert wf_ctx.snapshot is not None
    before, events = wf_ctx.snapshot
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id))
    assert path.read_bytes() == before, "a damaged workflow.json must be left as it was"
    assert wf_raw_events(wf_ctx) == events, f"no timeline event should be added: {wf_raw_events(wf_ctx)}"


def wf_active_agent_file(ctx: WfContext) -> Path:
    return Path(ctx.workflow.state.path(ctx.session_id)).parent / "active-agent.json"


@given(parsers.re(r"session 目錄中有記錄 (?P<agent>[\w-]+) 的 active-agent.json"))
def wf_given_active_agent_file(wf_ctx: WfContext, agent: str) -> None:
    path = wf_active_agent_file(wf_ctx)
    path.write_text(json.dumps({"agent": agent, "stage": "DEV"}) + "\n", encoding="utf-8")


@then("session 目錄中不再有 active-agent.json")
def wf_then_active_agent_file_gone(wf_ctx: WfContext) -> None:
    path = wf_active_agent_file(wf_ctx)
    assert not path.exists(), f"the hook should delete {path}"


@given(parsers.re(r"環境變數 SYNAPSE_COMPACT_THRESHOLD_MB 為 (?P<value>.+)"))
def wf_given_threshold_env(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    if value == "(未設定)":
        monkeypatch.delenv(WF_THRESHOLD_ENV, raising=False)
    else:
        monkeypatch.setenv(WF_THRESHOLD_ENV, cells.expand(value))


@given(parsers.re(r"transcript 檔案恰好 (?P<size>\d+) bytes$"))
def wf_given_exact_transcript(wf_ctx: WfContext, size: str) -> None:
    wf_make_transcript(wf_ctx, int(size))


@given(
    parsers.re(r"transcript 檔案恰好 (?P<size>\d+) bytes，內容是 (?P<count>\d+) 個三位元組的中文字元「中」")
)
def wf_given_cjk_transcript(wf_ctx: WfContext, size: str, count: str) -> None:
    path = wf_make_transcript(wf_ctx, 0)
    path.write_text("中" * int(count), encoding="utf-8")
    assert path.stat().st_size == int(size), f"the transcript should be exactly {size} bytes"


@when(parsers.re(r"`shouldSuggestCompact` 以選項 (?P<options>\{.*\}) 執行"))
def wf_when_call_with_json_options(wf_ctx: WfContext, options: str) -> None:
    wf_run_call(wf_ctx, json.loads(options))


@then(parsers.re(r"回傳的結果是 (?P<expected>\{.*\})"))
def wf_then_exact_result(wf_ctx: WfContext, expected: str) -> None:
    result = wf_result(wf_ctx)
    assert dict(result) == json.loads(expected), (
        f"shouldSuggestCompact should return {expected}, got {result}"
    )


@given(parsers.re(r"timeline 依序記錄了 (?P<events>.+)"))
def wf_given_event_sequence(wf_ctx: WfContext, events: str) -> None:
    for item in (part.strip() for part in events.split(",")):
        match = re.fullmatch(r"(?P<type>[\w:-]+)(?:\((?P<result>\w+)\))?", item)
        assert match is not None, f"the step cannot read the event {item!r}"
        event_type, result = match["type"], match["result"] or "pass"
        data: dict[str, Any] = {
            "session:compact": {"workflowType": "standard", "currentStage": "DEV"},
            "stage:complete": {"stage": "PLAN", "result": result},
            "tool:failure": {"tool": "Bash", "error": "exit status 1"},
        }[event_type]
        wf_emit(wf_ctx, event_type, data)
    recorded = [e.get("type") for e in wf_ctx.workflow.timeline.query(wf_ctx.session_id)]
    expected = [re.sub(r"\(\w+\)$", "", part.strip()) for part in events.split(",")]
    assert recorded == expected, f"the timeline should hold {expected}, holds {recorded}"


@then(parsers.re(r"拋出錯誤，訊息提到「(?P<name>.+)」"))
def wf_then_option_error(wf_ctx: WfContext, name: str) -> None:
    assert wf_ctx.error is not None, f"invalid options should raise, but the call returned {wf_ctx.result!r}"
    assert name in str(wf_ctx.error), f"the error should name {name!r}, said {str(wf_ctx.error)!r}"


@given("transcriptPath 指向一個目錄")
def wf_given_directory_transcript(wf_ctx: WfContext) -> None:
    directory = wf_ctx.tmp / "transcript-dir"
    directory.mkdir()
    wf_ctx.call_kwargs["transcript_path"] = str(directory)


@given("呼叫時沒有提供 session id")
def wf_given_no_session_id(wf_ctx: WfContext) -> None:
    wf_ctx.call_kwargs.pop("session_id", None)
    wf_ctx.call_state = wf_state(wf_ctx)


@given("呼叫的 session 沒有 workflow state")
def wf_given_session_without_state(wf_ctx: WfContext) -> None:
    wf_ctx.call_kwargs["session_id"] = "wf-session-without-workflow"
    assert wf_ctx.workflow.state.read("wf-session-without-workflow") is None


@given("workflow.json 不是 workflow state")
def wf_given_state_not_a_state(wf_ctx: WfContext) -> None:
    Path(wf_ctx.workflow.state.path(wf_ctx.session_id)).write_text("[]\n", encoding="utf-8")


@given("workflow.json 的欄位含有 NaN")
def wf_given_state_with_nan(wf_ctx: WfContext) -> None:
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id))
    state = json.loads(path.read_text(encoding="utf-8"))
    # json.dumps writes the float as the bare word NaN, which JSON.parse refuses.
    path.write_text(json.dumps({**state, "elapsedMs": float("nan")}, indent=2) + "\n", encoding="utf-8")


@given("timeline 檔案含有無法解碼的位元組")
def wf_given_timeline_undecodable(wf_ctx: WfContext) -> None:
    path = Path(wf_ctx.workflow.timeline.path(wf_ctx.session_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe not text\n")


@then(parsers.re(r"hook 的 `result` 中並行群組收斂的宣告為「(?P<line>.+)」"))
def wf_then_convergence_line(wf_ctx: WfContext, line: str) -> None:
    found = [text for text in wf_lines(wf_hook_text(wf_ctx)) if "並行群組" in text]
    expected = [] if line == "無" else [line]
    assert found == expected, f"the result should announce {expected} about parallel groups, has {found}"


@then(parsers.re(r"hook 的 `result` 中下一步的指引為「(?P<line>.+)」"))
def wf_then_next_step_line(wf_ctx: WfContext, line: str) -> None:
    found = [text for text in wf_lines(wf_hook_text(wf_ctx)) if text.startswith("⏭️ 下一步：")]
    assert found == [line], f"the result should say {line!r} as its next step, has {found}"


@then(parsers.re(r"stderr 指出未寫入的 timeline 事件 (?P<types>[\w:、-]+)"))
def wf_then_stderr_lost_events(wf_ctx: WfContext, types: str) -> None:
    lines = wf_outcome(wf_ctx).stderr.splitlines()
    for event_type in types.split("、"):
        naming = [line for line in lines if event_type in line]
        assert len(naming) == 1, f"one stderr line should name the lost event {event_type}: {lines}"


# --------------------------------------------------------------------------------------------------------
# Beyond the seed: the hook answers any input and removes leftovers of interrupted writes
# --------------------------------------------------------------------------------------------------------

WF_BAD_INPUTS.update(
    {
        "5000 位數的數字": lambda ctx: "9" * 5000,
        "十萬層巢狀的陣列": lambda ctx: "[" * 100_000 + "]" * 100_000,
        "session_id 為 5000 位數字的 SubagentStop 事件": lambda ctx: json.dumps(
            wf_stop_event(ctx, "DEV", "pass")
        ).replace(json.dumps(ctx.session_id), "9" * 5000),
        "last_assistant_message 巢狀十萬層的 SubagentStop 事件": lambda ctx: json.dumps(
            {**wf_stop_event(ctx, "DEV", "pass"), "last_assistant_message": "@"}
        ).replace('"@"', "[" * 100_000 + "]" * 100_000),
    }
)


@when("hook 指令逐一讀到隨機產生的 stdin：任意文字、任意 JSON，以及欄位型別任意的 SubagentStop 事件")
def wf_when_generated_stdin(wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_SESSION_ID", raising=False)
    regressions = [WF_BAD_INPUTS[name](wf_ctx) for name in ("5000 位數的數字", "十萬層巢狀的陣列")]
    strategy = fuzz.hostile_stdin(session_ids=[wf_ctx.session_id])
    wf_ctx.result = fuzz.trials(strategy, wf_ctx.workflow.on_stop_command, examples=regressions)


def wf_hook_trials(ctx: WfContext) -> list[fuzz.Trial]:
    assert isinstance(ctx.result, list) and ctx.result, "the hook should have been run on generated input"
    return ctx.result


def wf_answer_problem(trial: fuzz.Trial) -> str | None:
    if trial.error is not None:
        return f"the hook raised {trial.error!r}"
    outcome = trial.output
    if outcome.exit_code != 0:
        return f"exit code {outcome.exit_code}"
    stdout = outcome.stdout
    if not stdout.endswith("\n") or stdout.count("\n") != 1:
        return f"stdout is not one line: {stdout!r:.200}"
    try:
        answer = json.loads(stdout)
    except ValueError:
        return f"stdout is not JSON: {stdout!r:.200}"
    if not isinstance(answer, dict) or not isinstance(answer.get("result"), str):
        return f'stdout is not {{"result": "..."}}: {stdout!r:.200}'
    return None


@then("每一次 stdout 都是一行帶字串 `result` 的 JSON 物件，結束碼為 0")
def wf_then_every_answer_valid(wf_ctx: WfContext) -> None:
    failure = fuzz.first_failure(wf_hook_trials(wf_ctx), wf_answer_problem)
    assert failure is None, f"the hook must always answer: {failure}"


@then("每一次 stderr 都不含 traceback")
def wf_then_no_traceback(wf_ctx: WfContext) -> None:
    def problem(trial: fuzz.Trial) -> str | None:
        if trial.error is not None:
            return f"the hook raised {trial.error!r}"
        return "stderr holds a traceback" if "Traceback" in trial.output.stderr else None

    failure = fuzz.first_failure(wf_hook_trials(wf_ctx), problem)
    assert failure is None, f"the hook must not print a traceback: {failure}"


@given("session 目錄中有這些檔案:")
def wf_given_session_files(wf_ctx: WfContext, datatable: list[list[str]]) -> None:
    directory = Path(wf_ctx.workflow.state.path(wf_ctx.session_id)).parent
    leftovers, others = [], {}
    for name, leftover in datatable[1:]:
        path = directory / name
        content = f"{name} 的內容\n"
        path.write_text(content, encoding="utf-8")
        if leftover == "是":
            leftovers.append(path)
        else:
            others[path] = content
    wf_ctx.call_kwargs = {"leftovers": leftovers, "others": others}


@then("中斷寫入的殘檔都已刪除，其他檔案內容不變")
def wf_then_leftovers_removed(wf_ctx: WfContext) -> None:
    leftovers: list[Path] = wf_ctx.call_kwargs["leftovers"]
    others: dict[Path, str] = wf_ctx.call_kwargs["others"]
    left = [p.name for p in leftovers if os.path.lexists(p)]
    assert not left, f"the next write should remove what interrupted writes left behind: {left}"
    for path, content in others.items():
        assert path.is_file() and path.read_text(encoding="utf-8") == content, (
            f"{path.name} is not a leftover of an interrupted write and must stay unchanged"
        )


@given(parsers.parse('殘檔 "{name}" 任何行程都刪除不了'))
def wf_given_leftover_undeletable(wf_ctx: WfContext, name: str, request: pytest.FixtureRequest) -> None:
    path = Path(wf_ctx.workflow.state.path(wf_ctx.session_id)).parent / name
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    stack.enter_context(probes.undeletable(path))
    wf_ctx.call_kwargs["undeletable"] = path


@then("除了刪除不了的那一個，中斷寫入的殘檔都已刪除，其他檔案內容不變")
def wf_then_leftovers_removed_but_one(wf_ctx: WfContext) -> None:
    undeletable: Path = wf_ctx.call_kwargs["undeletable"]
    leftovers = [p for p in wf_ctx.call_kwargs["leftovers"] if p != undeletable]
    left = [p.name for p in leftovers if os.path.lexists(p)]
    assert not left, f"a leftover that cannot be deleted must not stop the removal of the others: {left}"
    assert undeletable.is_file(), f"{undeletable.name} could not be deleted and is still there"
    for path, content in wf_ctx.call_kwargs["others"].items():
        assert path.is_file() and path.read_text(encoding="utf-8") == content, (
            f"{path.name} is not a leftover of an interrupted write and must stay unchanged"
        )


WF_LINK_KIND = re.compile(r"指向 (?P<target>\S+) 的符號連結")


@given("session 目錄中有這些項目:")
def wf_given_session_entries(wf_ctx: WfContext, datatable: list[list[str]]) -> None:
    """Entries named like temp files that no write of the hook could have left: writes make regular
    files only, so a link or a directory of that name belongs to someone else."""
    directory = Path(wf_ctx.workflow.state.path(wf_ctx.session_id)).parent
    leftovers: list[Path] = []
    kept: dict[Path, tuple[str, str]] = {}
    for name, kind in datatable[1:]:
        path = directory / name
        link = WF_LINK_KIND.fullmatch(kind)
        if kind in ("中斷寫入的殘檔", "一般檔案"):
            content = f"{name} 的內容\n"
            path.write_text(content, encoding="utf-8")
            if kind == "中斷寫入的殘檔":
                leftovers.append(path)
            else:
                kept[path] = ("file", content)
        elif link:
            path.symlink_to(link["target"])
            kept[path] = ("link", link["target"])
        elif kind == "目錄":
            path.mkdir()
            (path / "inside.txt").write_text(f"{name} 裡的檔案\n", encoding="utf-8")
            kept[path] = ("dir", f"{name} 裡的檔案\n")
        else:
            raise AssertionError(f"the step has no entry kind called {kind!r}")
    wf_ctx.call_kwargs = {"leftovers": leftovers, "kept": kept}


@then("中斷寫入的殘檔都已刪除，符號連結、目錄與一般檔案原樣保留")
def wf_then_leftovers_removed_entries_kept(wf_ctx: WfContext) -> None:
    leftovers: list[Path] = wf_ctx.call_kwargs["leftovers"]
    kept: dict[Path, tuple[str, str]] = wf_ctx.call_kwargs["kept"]
    left = [p.name for p in leftovers if os.path.lexists(p)]
    assert not left, f"the next write should remove what interrupted writes left behind: {left}"
    for path, (kind, expected) in kept.items():
        if kind == "link":
            assert path.is_symlink() and os.readlink(path) == expected, (
                f"the symbolic link {path.name} is no leftover of a write and must stay as it was"
            )
        elif kind == "dir":
            inside = path / "inside.txt"
            assert path.is_dir() and not path.is_symlink() and inside.is_file(), (
                f"the directory {path.name} is no leftover of a write and must stay with its content"
            )
            assert inside.read_text(encoding="utf-8") == expected, f"{inside} must stay unchanged"
        else:
            assert path.is_file() and path.read_text(encoding="utf-8") == expected, (
                f"{path.name} is not a leftover of an interrupted write and must stay unchanged"
            )


@when(
    parsers.re(
        r"另一個 hook 行程處理 `(?P<agent>[\w:-]+)` 的結束事件（VERDICT 為 (?P<verdict>\w+)），"
        r"在 session 目錄中建立第一個新檔案時被強制結束"
    )
)
def wf_when_hook_killed_while_writing(
    wf_ctx: WfContext, synapse: contract.Implementation, agent: str, verdict: str
) -> None:
    directory = Path(wf_ctx.workflow.state.path(wf_ctx.session_id)).parent
    root = wf_ctx.tmp / "workflow-home"
    event = json.dumps(wf_agent_event(wf_ctx, agent, wf_verdict_message(verdict)), ensure_ascii=False)

    def stop(implementation: contract.Implementation) -> None:
        implementation.staged_workflow(root, clock=wf_ctx.clock).on_stop_command(event)

    created = probes.killed_while_writing(synapse, directory, stop)
    wf_ctx.call_kwargs = {"killed_write": directory / created}


@then("它建立的檔案名為 `.<檔名>.<隨機字元>.tmp`")
def wf_then_killed_write_temp_name(wf_ctx: WfContext) -> None:
    created: Path = wf_ctx.call_kwargs["killed_write"]
    pattern = re.compile(r"\.(?:workflow\.json|timeline\.jsonl)\..+\.tmp")
    assert pattern.fullmatch(created.name), (
        f"a write goes through a temp file named .<file>.<random>.tmp next to it, created {created.name!r}"
    )


@then("被強制結束的 hook 建立的暫存檔已刪除")
def wf_then_killed_write_removed(wf_ctx: WfContext) -> None:
    created: Path = wf_ctx.call_kwargs["killed_write"]
    assert not os.path.lexists(created), (
        f"the next write should remove the temp file the killed hook left behind: {created.name}"
    )


@given("環境變數 CLAUDE_SESSION_ID 是另一個沒有 workflow 的 session 的 id")
def wf_given_other_session_env(wf_ctx: WfContext, monkeypatch: pytest.MonkeyPatch) -> None:
    other = f"{wf_ctx.session_id}-other"
    assert wf_ctx.workflow.state.read(other) is None, "setting up: the other session has no workflow"
    monkeypatch.setenv("CLAUDE_SESSION_ID", other)
