"""Step definitions for the workflow's registry, state file, file layout and timeline file.

Every scenario works below its own root (``tmp_path``).  The clock moves one millisecond per reading
unless a step stops it at a given instant, so stored timestamps are predictable.  Files are read from
disk where the sentence is about what the user finds there.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from steps.workflow import WF_STAGE_AGENTS, WfClock
from synapse_spec import cells, contract

WFR_MAX_LINES_ENV = "SYNAPSE_TIMELINE_MAX_LINES"
WFR_EVENT_ALIASES = {"compact": "session:compact", "failure": "tool:failure"}


@dataclass
class WfrContext:
    workflow: contract.StagedWorkflow
    root: Path
    tmp: Path
    clock: WfClock
    session_id: str = "wfr-session"
    stage_rows: list[dict[str, str]] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    returned: Any = None
    error: BaseException | None = None
    before: bytes | None = None
    snapshot: set[Path] = field(default_factory=set)
    hook: contract.CommandResult | None = None
    hook_result: str | None = None


@pytest.fixture
def wfr_ctx(synapse: contract.Implementation, tmp_path: Path) -> WfrContext:
    root = tmp_path / "workflow-home"
    clock = WfClock()
    return WfrContext(
        workflow=synapse.staged_workflow(root, clock=clock), root=root, tmp=tmp_path, clock=clock
    )


# --------------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------------


def wfr_list(text: str) -> list[str]:
    """``A, B`` / ``1,2`` -> items; ``-`` and ``(空)`` -> none."""
    text = text.strip()
    if text in ("-", "(空)"):
        return []
    return [item.strip() for item in re.split(r"[,、]", text) if item.strip()]


def wfr_cell(text: str) -> str | None:
    return None if text.strip() == "-" else text.strip()


def wfr_session_dir(ctx: WfrContext, session_id: str) -> Path:
    return ctx.root / "sessions" / session_id


def wfr_state_file(ctx: WfrContext, session_id: str) -> Path:
    path = Path(ctx.workflow.state.path(session_id))
    expected = wfr_session_dir(ctx, session_id) / "workflow.json"
    assert path == expected, f"the state of {session_id!r} should live at {expected}, the store says {path}"
    return path


def wfr_timeline_file(ctx: WfrContext, session_id: str) -> Path:
    path = Path(ctx.workflow.timeline.path(session_id))
    expected = wfr_session_dir(ctx, session_id) / "timeline.jsonl"
    assert path == expected, f"the timeline of {session_id!r} should live at {expected}, it says {path}"
    return path


def wfr_disk_state(ctx: WfrContext, session_id: str) -> dict[str, Any]:
    path = wfr_state_file(ctx, session_id)
    assert path.is_file(), f"{path} should exist"
    state = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(state, dict), f"{path} should hold a JSON object, holds {state!r}"
    return state


def wfr_lines(ctx: WfrContext, session_id: str) -> list[str]:
    """The timeline file's lines; the file must end with a newline and hold no blank line."""
    text = wfr_timeline_file(ctx, session_id).read_text(encoding="utf-8")
    assert text.endswith("\n"), f"timeline.jsonl should end with a newline: {text[-80:]!r}"
    lines = text[:-1].split("\n")
    assert all(line.strip() for line in lines), f"timeline.jsonl should hold no blank line: {text!r}"
    return lines


def wfr_listing(directory: Path) -> list[str]:
    """Names in ``directory`` except lock files (how a store locks is its own business)."""
    return sorted(p.name for p in directory.iterdir() if not p.name.endswith(".lock"))


def wfr_tree(root: Path) -> set[Path]:
    return set(root.rglob("*")) if root.exists() else set()


def wfr_event_line(n: int, event_type: str, registry: Mapping[str, Mapping[str, str]]) -> str:
    definition = registry[event_type]
    event = {
        "ts": f"2026-03-01T06:00:00.{n % 1000:03d}Z",
        "type": event_type,
        "category": definition["category"],
        "label": definition["label"],
        "n": n,
    }
    return json.dumps(event, ensure_ascii=False)


def wfr_stop_event(session_id: str, agent: str, verdict: str) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "hook_event_name": "SubagentStop",
        "agent_type": agent,
        "last_assistant_message": f'工作完成。\n<!-- VERDICT: {{"result": "{verdict}"}} -->',
        "transcript_path": "",
    }


def wfr_expect_error(ctx: WfrContext, offending: str | None) -> None:
    assert ctx.error is not None, f"the call should have failed, it returned {ctx.returned!r}"
    if offending is not None:
        assert offending in str(ctx.error), f"the error should name {offending!r}, it says {str(ctx.error)!r}"


# --------------------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------------------


@given("timeline 事件登記表恰好包含下列事件：")
def wfr_given_registry(wfr_ctx: WfrContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["type", "label", "category"], f"unexpected table header {header}"
    expected = {t: {"label": label, "category": category} for t, label, category in rows}
    actual = {k: dict(v) for k, v in wfr_ctx.workflow.timeline_events.items()}
    assert actual == expected, (
        f"timelineEvents should be exactly the table; missing {sorted(set(expected) - set(actual))}, "
        f"extra {sorted(set(actual) - set(expected))}, different "
        f"{ {k: actual[k] for k in expected if k in actual and actual[k] != expected[k]} }"
    )
    wfr_ctx.stage_rows = [{"type": t, "label": label, "category": c} for t, label, c in rows]


@when("依表中順序將每一種事件 emit 到一個 standard workflow 的 session")
def wfr_when_emit_all(wfr_ctx: WfrContext) -> None:
    wfr_ctx.workflow.state.init(wfr_ctx.session_id, "standard")
    for n, row in enumerate(wfr_ctx.stage_rows, start=1):
        event = wfr_ctx.workflow.timeline.emit(wfr_ctx.session_id, row["type"], {"n": n})
        assert event.get("type") == row["type"] and event.get("n") == n, f"emit returned {event}"


@then("timeline.jsonl 每行恰好一筆事件，依序帶著表中的 type、label 與 category，label 以原文保存")
def wfr_then_registry_lines(wfr_ctx: WfrContext) -> None:
    lines = wfr_lines(wfr_ctx, wfr_ctx.session_id)
    rows = wfr_ctx.stage_rows
    assert len(lines) == len(rows), f"{len(rows)} lines expected, found {len(lines)}"
    for n, (line, row) in enumerate(zip(lines, rows, strict=True), start=1):
        event = json.loads(line)
        found = (event.get("type"), event.get("label"), event.get("category"), event.get("n"))
        assert found == (row["type"], row["label"], row["category"], n), (
            f"line {n} should be {row['type']} / {row['label']} / {row['category']}, got {event}"
        )
        assert row["label"] in line, f"the label should be stored as written (no escapes): {line}"


@given("一個 single workflow 明確依序包含下列 stage：")
def wfr_given_stage_walk(wfr_ctx: WfrContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["stage", "label", "emoji", "agent"], f"unexpected table header {header}"
    wfr_ctx.stage_rows = [dict(zip(header, row, strict=True)) for row in rows]
    stages = [row["stage"] for row in wfr_ctx.stage_rows]
    wfr_ctx.workflow.state.init(wfr_ctx.session_id, "single", stages)
    assert list(wfr_disk_state(wfr_ctx, wfr_ctx.session_id)["stages"]) == stages


@when("每個 stage 的 agent 依序以 PASS 結束自己的 stage")
def wfr_when_stage_walk(wfr_ctx: WfrContext) -> None:
    for row in wfr_ctx.stage_rows:
        answer = wfr_ctx.workflow.on_stop(wfr_stop_event(wfr_ctx.session_id, row["agent"], "PASS"))
        wfr_ctx.results.append(answer["result"])
        entry = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)["stages"][row["stage"]]
        assert entry.get("status") == "completed", (
            f"{row['agent']} should complete {row['stage']}, the state has {entry}"
        )


def wfr_grader_line(ctx: WfrContext, row: Mapping[str, str]) -> str:
    return (
        "💡 可選：委派 grader agent 評估此階段輸出品質（subagent_type: ot:grader，"
        f"傳入 STAGE={row['stage']} AGENT={row['agent']} SESSION_ID={ctx.session_id}）"
    )


@then("每次 hook 的 result 以「✅ 表情 名稱完成」開頭，並以「委派 表情 agent（名稱）」指向下一個 stage")
def wfr_then_stage_messages(wfr_ctx: WfrContext) -> None:
    rows = wfr_ctx.stage_rows
    assert len(wfr_ctx.results) == len(rows)
    for row, after, result in zip(rows[:-1], rows[1:], wfr_ctx.results[:-1], strict=True):
        expected = [
            f"✅ {row['emoji']} {row['label']}完成",
            f"📊 請更新 TaskList：TaskUpdate status completed（{row['label']}）",
            f"⏭️ 下一步：委派 {after['emoji']} {after['agent']}（{after['label']}）",
            "",
            wfr_grader_line(wfr_ctx, row),
        ]
        assert result.split("\n") == expected, (
            f"after {row['stage']} the hook should answer {expected}, answered {result.split(chr(10))}"
        )


@then("最後一個 stage 的 result 宣告所有階段已完成並建議委派 planner")
def wfr_then_last_stage_message(wfr_ctx: WfrContext) -> None:
    row = wfr_ctx.stage_rows[-1]
    expected = [
        f"✅ {row['emoji']} {row['label']}完成",
        f"📊 請更新 TaskList：TaskUpdate status completed（{row['label']}）",
        "🎉 所有階段已完成！",
        "📋 建議：委派 planner 規劃下一批工作（或執行 /ot:plan）",
        "",
        wfr_grader_line(wfr_ctx, row),
    ]
    result = wfr_ctx.results[-1].split("\n")
    assert result == expected, f"the last stage should be answered with {expected}, got {result}"


@then("workflow.json 中每個 stage 都是 completed（pass）")
def wfr_then_all_passed(wfr_ctx: WfrContext) -> None:
    stages = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)["stages"]
    found = {k: (e.get("status"), e.get("result")) for k, e in stages.items()}
    assert all(v == ("completed", "pass") for v in found.values()), f"every stage should pass: {found}"


# --------------------------------------------------------------------------------------------------------
# workflow.json
# --------------------------------------------------------------------------------------------------------


@given(parsers.re(r"時鐘停在 `(?P<moment>[^`]+)`"))
def wfr_given_clock(wfr_ctx: WfrContext, moment: str) -> None:
    instant = datetime.fromisoformat(moment)
    assert instant.tzinfo is not None, "the scenario should give an aware instant"
    wfr_ctx.clock.stop_at(instant)


def wfr_init(ctx: WfrContext, session_id: str, workflow_type: str, stages: list[str] | None) -> None:
    ctx.returned, ctx.error = None, None
    try:
        ctx.returned = ctx.workflow.state.init(session_id, workflow_type, stages)
    except Exception as exc:
        ctx.error = exc


@given(parsers.re(r"為 session `(?P<session>[^`]+)` 啟動一個 (?P<workflow_type>[\w-]+) workflow"))
def wfr_given_init(wfr_ctx: WfrContext, session: str, workflow_type: str) -> None:
    wfr_init(wfr_ctx, session, workflow_type, None)
    assert wfr_ctx.error is None, f"starting a {workflow_type} workflow failed: {wfr_ctx.error!r}"
    wfr_ctx.session_id = session
    wfr_ctx.before = wfr_state_file(wfr_ctx, session).read_bytes()


@when(parsers.re(r"為 session `(?P<session>[^`]+)` 啟動一個 (?P<workflow_type>[\w-]+) workflow"))
def wfr_when_init(wfr_ctx: WfrContext, session: str, workflow_type: str) -> None:
    wfr_ctx.session_id = session
    wfr_init(wfr_ctx, session, workflow_type, None)


@then(parsers.re(r"`sessions/(?P<session>[^/]+)/workflow.json` 是 2 格縮排並以換行結尾的 JSON，內容為："))
def wfr_then_state_file(wfr_ctx: WfrContext, session: str, docstring: str) -> None:
    assert wfr_ctx.error is None, f"starting the workflow failed: {wfr_ctx.error!r}"
    path = wfr_state_file(wfr_ctx, session)
    text = path.read_text(encoding="utf-8")
    state = json.loads(text)
    expected = json.loads(docstring)
    assert state == expected, f"workflow.json should hold {expected}, holds {state}"
    assert list(state["stages"]) == list(expected["stages"]), (
        f"the stages should be stored in workflow order, got {list(state['stages'])}"
    )
    pretty = json.dumps(state, ensure_ascii=False, indent=2) + "\n"
    assert text == pretty, f"workflow.json should be JSON indented by 2 spaces ending in a newline:\n{text}"


@then("啟動時回傳的 state 與 workflow.json 的內容相同")
def wfr_then_init_returns_state(wfr_ctx: WfrContext) -> None:
    disk = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)
    assert wfr_ctx.returned == disk, f"init returned {wfr_ctx.returned}, the file holds {disk}"


@then(parsers.re(r"session 目錄中除了鎖定檔（\*\.lock）只有 (?P<name>[\w.]+)"))
def wfr_then_only_file(wfr_ctx: WfrContext, name: str) -> None:
    listing = wfr_listing(wfr_session_dir(wfr_ctx, wfr_ctx.session_id))
    assert listing == [name], f"the session directory should hold only {name} (and locks), holds {listing}"


@then(parsers.re(r"session `(?P<session>[^`]+)` 的目錄中除了鎖定檔（\*\.lock）只有 (?P<name>[\w.]+)"))
def wfr_then_only_file_of(wfr_ctx: WfrContext, session: str, name: str) -> None:
    listing = wfr_listing(wfr_session_dir(wfr_ctx, session))
    assert listing == [name], f"the session directory should hold only {name} (and locks), holds {listing}"


@when(
    parsers.re(
        r"為 session `(?P<session>[^`]+)` 以 stage 清單 (?P<stages>[A-Z][A-Z0-9:, -]*) "
        r"啟動一個 (?P<workflow_type>[\w-]+) workflow"
    )
)
def wfr_when_init_with_stages(wfr_ctx: WfrContext, session: str, stages: str, workflow_type: str) -> None:
    wfr_ctx.session_id = session
    wfr_init(wfr_ctx, session, workflow_type, wfr_list(stages))
    assert wfr_ctx.error is None, f"starting the workflow failed: {wfr_ctx.error!r}"


@then(
    parsers.re(
        r"workflow.json 的 stage 依序為 (?P<keys>[A-Z][A-Z0-9:, -]*)，"
        r"TEST 類 stage 的 mode 依序為 (?P<modes>[\w, -]+)"
    )
)
def wfr_then_stage_keys(wfr_ctx: WfrContext, keys: str, modes: str) -> None:
    stages = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)["stages"]
    assert list(stages) == wfr_list(keys), f"the stage keys should be {wfr_list(keys)}, got {list(stages)}"
    found = [e.get("mode") for k, e in stages.items() if k.split(":")[0] == "TEST"]
    assert found == wfr_list(modes), f"the TEST modes should be {wfr_list(modes)}, got {found}"
    others = {k: e for k, e in stages.items() if k.split(":")[0] != "TEST" and "mode" in e}
    assert not others, f"only TEST stages have a mode, got {others}"
    fresh = {k: (e.get("status"), e.get("result")) for k, e in stages.items()}
    assert all(v == ("pending", None) for v in fresh.values()), f"every stage should start pending: {fresh}"


@then(parsers.re(r"workflow.json 的 currentStage 是 (?P<stage>[A-Z][A-Z0-9:-]*)"))
def wfr_then_current_stage(wfr_ctx: WfrContext, stage: str) -> None:
    current = wfr_disk_state(wfr_ctx, wfr_ctx.session_id).get("currentStage")
    assert current == stage, f"currentStage should be {stage}, got {current!r}"


@when(
    parsers.re(
        r"為 session `(?P<session>[^`]+)` 啟動 (?P<workflow_type>[\w-]+) workflow，"
        r"stage 清單為 (?P<stages>.+)"
    )
)
def wfr_when_init_bad(wfr_ctx: WfrContext, session: str, workflow_type: str, stages: str) -> None:
    wfr_ctx.session_id = session
    wfr_init(wfr_ctx, session, workflow_type, None if stages == "(預設)" else wfr_list(stages))


@then(parsers.re(r"(?:啟動|設定|讀取)失敗(?:，錯誤訊息指出 (?P<offending>[^\s`]+))?"))
def wfr_then_failed(wfr_ctx: WfrContext, offending: str | None) -> None:
    wfr_expect_error(wfr_ctx, wfr_cell(offending) if offending is not None else None)


@then(parsers.re(r"session `(?P<session>[^`]+)` 沒有 workflow.json"))
def wfr_then_no_state(wfr_ctx: WfrContext, session: str) -> None:
    path = wfr_state_file(wfr_ctx, session)
    assert not path.exists(), f"{path} should not have been written"
    assert wfr_ctx.workflow.state.read(session) is None, f"session {session!r} should have no workflow"


@when("依序設定下列 stage 狀態，每次之後 workflow.json 如表所示：")
def wfr_when_set_stages(wfr_ctx: WfrContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["stage", "status", "result", "currentStage"], f"unexpected header {header}"
    stamp = wfr_ctx.clock()
    for stage, status, result, current in rows:
        returned = wfr_ctx.workflow.state.set_stage(
            wfr_ctx.session_id, stage, status=status, result=wfr_cell(result)
        )
        state = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)
        assert returned == state, f"set_stage returned {returned}, the file holds {state}"
        entry = state["stages"][stage]
        assert (entry.get("status"), entry.get("result")) == (status, wfr_cell(result)), (
            f"after setting {stage} to {status}/{result} the file holds {entry}"
        )
        if status == "completed":
            assert "completedAt" in entry, f"a completed stage should record completedAt: {entry}"
        else:
            assert "completedAt" not in entry, f"a {status} stage should have no completedAt: {entry}"
        assert state.get("currentStage") == current, (
            f"after setting {stage} to {status} currentStage should be {current}, "
            f"got {state.get('currentStage')!r}"
        )
    assert wfr_ctx.clock() == stamp


@then(
    parsers.re(
        r"每個 completed 的 stage 記錄時鐘的時間 `(?P<ts>[^`]+)` 為 completedAt，其他 stage 沒有 completedAt"
    )
)
def wfr_then_completed_at(wfr_ctx: WfrContext, ts: str) -> None:
    stages = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)["stages"]
    for key, entry in stages.items():
        expected = ts if entry.get("status") == "completed" else None
        assert entry.get("completedAt") == expected, f"{key} should have completedAt {expected!r}: {entry}"


@when(
    parsers.re(r"對 session `(?P<session>[^`]+)` 將 stage (?P<stage>[A-Z][A-Z0-9:-]*) 設為 (?P<status>\w+)")
)
def wfr_when_set_bad(wfr_ctx: WfrContext, session: str, stage: str, status: str) -> None:
    wfr_ctx.returned, wfr_ctx.error = None, None
    try:
        wfr_ctx.returned = wfr_ctx.workflow.state.set_stage(session, stage, status=status, result="pass")
    except Exception as exc:
        wfr_ctx.error = exc


@then(parsers.re(r"session `(?P<session>[^`]+)` 的 workflow.json 與設定前完全相同"))
def wfr_then_state_unchanged(wfr_ctx: WfrContext, session: str) -> None:
    assert wfr_ctx.before is not None
    now = wfr_state_file(wfr_ctx, session).read_bytes()
    assert now == wfr_ctx.before, f"workflow.json should not change, it is now {now.decode('utf-8')}"


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 workflow.json 內容為 `(?P<content>.+)`"))
def wfr_given_broken_state(wfr_ctx: WfrContext, session: str, content: str) -> None:
    path = wfr_state_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    wfr_ctx.session_id = session


@when(parsers.re(r"讀取 session `(?P<session>[^`]+)` 的 workflow state"))
def wfr_when_read_state(wfr_ctx: WfrContext, session: str) -> None:
    wfr_ctx.returned, wfr_ctx.error = None, None
    try:
        wfr_ctx.returned = wfr_ctx.workflow.state.read(session)
    except Exception as exc:
        wfr_ctx.error = exc


@then("讀取失敗，錯誤訊息指出 workflow.json 的路徑")
def wfr_then_read_failed(wfr_ctx: WfrContext) -> None:
    wfr_expect_error(wfr_ctx, str(wfr_state_file(wfr_ctx, wfr_ctx.session_id)))


@then("該 session 的 SubagentStop hook 回傳空的 result，stderr 指出 workflow.json 的路徑")
def wfr_then_hook_refuses_state(wfr_ctx: WfrContext) -> None:
    event = wfr_stop_event(wfr_ctx.session_id, "developer", "PASS")
    outcome = wfr_ctx.workflow.on_stop_command(json.dumps(event, ensure_ascii=False))
    assert outcome.exit_code == 0, f"the hook should exit 0, got {outcome.exit_code}"
    assert json.loads(outcome.stdout) == {"result": ""}, (
        f"stdout should be an empty result: {outcome.stdout!r}"
    )
    path = str(wfr_state_file(wfr_ctx, wfr_ctx.session_id))
    assert path in outcome.stderr, f"stderr should name {path}: {outcome.stderr!r}"


@then(parsers.re(r"session `(?P<session>[^`]+)` 的 workflow.json 內容仍為 `(?P<content>.+)`"))
def wfr_then_state_content(wfr_ctx: WfrContext, session: str, content: str) -> None:
    text = wfr_state_file(wfr_ctx, session).read_text(encoding="utf-8")
    assert text == content, f"a damaged workflow.json must be left as it is, it now holds {text!r}"


@given(
    parsers.re(
        r"session `(?P<session>[^`]+)` 的 workflow.json 記錄 "
        r"(?P<names>[\w-]+(?: 與 [\w-]+)*) 為進行中的 agent"
    )
)
def wfr_given_active_agents(wfr_ctx: WfrContext, session: str, names: str) -> None:
    path = wfr_state_file(wfr_ctx, session)
    state = json.loads(path.read_text(encoding="utf-8"))
    stages = {"tester": "TEST", "code-reviewer": "REVIEW"}
    state["activeAgents"] = {
        name: {"stage": stages[name], "startedAt": "2026-03-01T08:59:00.000Z"} for name in names.split(" 與 ")
    }
    path.write_text(json.dumps(state, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    stored = wfr_ctx.workflow.state.read(session)
    assert stored is not None and list(stored["activeAgents"]) == names.split(" 與 ")


@when("下列 agent 依序結束，每次之後 workflow.json 如表所示：")
def wfr_when_agents_finish(wfr_ctx: WfrContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header[:4] == ["agent", "verdict", "stage", "active"], f"unexpected header {header}"
    wfr_ctx.stage_rows = [dict(zip(header, row, strict=True)) for row in rows]
    for row in wfr_ctx.stage_rows:
        active = wfr_cell(row["active"])
        if active is not None:
            wfr_ctx.workflow.state.set_stage(wfr_ctx.session_id, active, status="active")
        wfr_ctx.workflow.on_stop(wfr_stop_event(wfr_ctx.session_id, row["agent"], row["verdict"]))
        state = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)
        entry = state["stages"][row["stage"]]
        found = {
            "status": entry.get("status"),
            "result": entry.get("result"),
            "failCount": state.get("failCount"),
            "rejectCount": state.get("rejectCount"),
            "currentStage": state.get("currentStage"),
            "activeAgents": sorted(state.get("activeAgents", {})),
        }
        expected = {
            "status": "completed",
            "result": row["verdict"].lower(),
            "failCount": int(row["failCount"]),
            "rejectCount": int(row["rejectCount"]),
            "currentStage": row["currentStage"],
            "activeAgents": sorted(wfr_list(row["activeAgents"])),
        }
        assert found == expected, f"after {row['agent']} ({row['verdict']}) expected {expected}, got {found}"


@then(
    parsers.re(
        r"每個 stage 都是 completed，result 為該 agent 的 verdict（小寫），completedAt 為 `(?P<ts>[^`]+)`"
    )
)
def wfr_then_hook_stages(wfr_ctx: WfrContext, ts: str) -> None:
    state = wfr_disk_state(wfr_ctx, wfr_ctx.session_id)
    expected = {row["stage"]: ("completed", row["verdict"].lower(), ts) for row in wfr_ctx.stage_rows}
    found = {k: (e.get("status"), e.get("result"), e.get("completedAt")) for k, e in state["stages"].items()}
    assert found == expected, f"the stages should be {expected}, got {found}"
    assert state.get("retroCount") == 0, f"no retro round was counted, got {state.get('retroCount')}"


# --------------------------------------------------------------------------------------------------------
# File layout and session ids
# --------------------------------------------------------------------------------------------------------


@when(
    parsers.re(
        r"以 session id `(?P<session>[^`]+)` 啟動 workflow、記錄 timeline 事件並執行 SubagentStop hook"
    )
)
def wfr_when_bad_session(wfr_ctx: WfrContext, session: str) -> None:
    wfr_ctx.snapshot = wfr_tree(wfr_ctx.tmp)
    if session.startswith("/"):
        assert not Path(session).exists(), f"{session} should not exist before the scenario"
    refused = []
    try:
        wfr_ctx.workflow.state.init(session, "single")
    except Exception:
        refused.append("init")
    try:
        wfr_ctx.workflow.timeline.emit(session, "stage:start", {"stage": "DEV"})
    except Exception:
        refused.append("emit")
    assert refused == ["init", "emit"], f"init and emit should refuse {session!r}; refused: {refused}"
    outcome = wfr_ctx.workflow.on_stop_command(json.dumps(wfr_stop_event(session, "developer", "PASS")))
    wfr_ctx.hook = outcome
    wfr_ctx.session_id = session


@then("啟動與記錄都失敗，hook 回傳空的 result")
def wfr_then_bad_session_hook(wfr_ctx: WfrContext) -> None:
    assert wfr_ctx.hook is not None
    assert wfr_ctx.hook.exit_code == 0 and json.loads(wfr_ctx.hook.stdout) == {"result": ""}, (
        f"the hook should answer an empty result, got {wfr_ctx.hook}"
    )


@then("workflow root 之外沒有任何新檔案，root 之內也沒有")
def wfr_then_nothing_written(wfr_ctx: WfrContext) -> None:
    created = wfr_tree(wfr_ctx.tmp) - wfr_ctx.snapshot
    assert not created, f"nothing should be written for a refused session id, found {sorted(created)}"
    if wfr_ctx.session_id.startswith("/"):
        outside = Path(wfr_ctx.session_id)
        assert not outside.exists(), f"{outside} should not have been created"


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 workflow.json 位置是一個目錄"))
def wfr_given_state_is_dir(wfr_ctx: WfrContext, session: str) -> None:
    wfr_state_file(wfr_ctx, session).mkdir(parents=True)


@then(parsers.re(r"session `(?P<session>[^`]+)` 的目錄中除了鎖定檔（\*\.lock）只有 workflow.json 這個目錄"))
def wfr_then_no_temp_files(wfr_ctx: WfrContext, session: str) -> None:
    directory = wfr_session_dir(wfr_ctx, session)
    assert wfr_listing(directory) == ["workflow.json"], (
        f"a failed write should leave no temporary file, found {wfr_listing(directory)}"
    )
    assert (directory / "workflow.json").is_dir()


# --------------------------------------------------------------------------------------------------------
# Timeline file
# --------------------------------------------------------------------------------------------------------


def wfr_emit(ctx: WfrContext, session: str, event_type: str, data: Mapping[str, Any]) -> None:
    ctx.returned, ctx.error = None, None
    try:
        ctx.returned = ctx.workflow.timeline.emit(session, event_type, data)
    except Exception as exc:
        ctx.error = exc


@when(
    parsers.re(r"在 session `(?P<session>[^`]+)` emit `(?P<event_type>[\w:-]+)`，資料為 `(?P<data>\{.*\})`")
)
def wfr_when_emit(wfr_ctx: WfrContext, session: str, event_type: str, data: str) -> None:
    wfr_ctx.session_id = session
    wfr_emit(wfr_ctx, session, event_type, json.loads(data))
    assert wfr_ctx.error is None, f"emit({event_type!r}) failed: {wfr_ctx.error!r}"


@then(parsers.re(r"timeline.jsonl 只有一行，以換行結尾，中文以原文保存，鍵依序為 (?P<keys>[\w, ]+)"))
def wfr_then_one_line(wfr_ctx: WfrContext, keys: str) -> None:
    lines = wfr_lines(wfr_ctx, wfr_ctx.session_id)
    assert len(lines) == 1, f"the timeline should hold one line, holds {lines}"
    event = json.loads(lines[0])
    assert list(event) == wfr_list(keys), f"the keys should be in the order {keys}, got {list(event)}"
    assert all(text in lines[0] for text in ("階段開始", "開始開發")), (
        f"non-ASCII text should be stored as written: {lines[0]}"
    )


@then(parsers.re(r"該行解析後為 `(?P<body>\{.*\})`"))
def wfr_then_line_is(wfr_ctx: WfrContext, body: str) -> None:
    event = json.loads(wfr_lines(wfr_ctx, wfr_ctx.session_id)[0])
    assert event == json.loads(body), f"the line should be {body}, got {event}"


@then("emit 回傳的事件與該行相同")
def wfr_then_emit_returns_line(wfr_ctx: WfrContext) -> None:
    event = json.loads(wfr_lines(wfr_ctx, wfr_ctx.session_id)[0])
    assert wfr_ctx.returned == event, f"emit returned {wfr_ctx.returned}, the file holds {event}"


@when(
    parsers.re(
        r"在 session `(?P<session>[^`]+)` emit `(?P<event_type>[\w:-]+)`，"
        r"資料帶有 `(?P<key>\w+): (?P<value>[^`]+)`"
    )
)
def wfr_when_emit_reserved(wfr_ctx: WfrContext, session: str, event_type: str, key: str, value: str) -> None:
    wfr_ctx.session_id = session
    wfr_emit(wfr_ctx, session, event_type, {"stage": "DEV", "result": "pass", key: value})


@then(parsers.re(r"timeline 中沒有帶 `(?P<key>\w+): (?P<value>[^`]+)` 的事件，每一筆事件都符合登記表"))
def wfr_then_reserved_kept(wfr_ctx: WfrContext, key: str, value: str) -> None:
    path = wfr_timeline_file(wfr_ctx, wfr_ctx.session_id)
    events = [json.loads(line) for line in wfr_lines(wfr_ctx, wfr_ctx.session_id)] if path.exists() else []
    assert all(e.get(key) != value for e in events), f"the data must not replace {key}: {events}"
    registry = wfr_ctx.workflow.timeline_events
    for event in events:
        definition = registry[event["type"]]
        assert (event.get("category"), event.get("label")) == (definition["category"], definition["label"])
    if wfr_ctx.error is None:
        assert len(events) == 1 and events[0].get("stage") == "DEV", (
            f"an accepted event should be recorded once with its other data: {events}"
        )
        assert wfr_ctx.returned == events[0], f"emit returned {wfr_ctx.returned}, stored {events[0]}"
    else:
        assert events == [], f"a refused event should not be written: {events}"


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 timeline.jsonl 以沒有換行的 `(?P<torn>[^`]+)` 結尾"))
def wfr_given_torn_timeline(wfr_ctx: WfrContext, session: str, torn: str) -> None:
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(torn.encode("utf-8"))
    wfr_ctx.session_id = session


@then(parsers.re(r"timeline.jsonl 依序是 `(?P<torn>[^`]+)` 與新事件兩行，以換行結尾"))
def wfr_then_torn_kept(wfr_ctx: WfrContext, torn: str) -> None:
    lines = wfr_lines(wfr_ctx, wfr_ctx.session_id)
    assert len(lines) == 2 and lines[0] == torn, f"the torn line should stay on its own line: {lines}"
    assert json.loads(lines[1]) == wfr_ctx.returned, f"the second line should be the new event: {lines[1]}"


@then("query 只回傳新事件")
def wfr_then_query_new_only(wfr_ctx: WfrContext) -> None:
    events = wfr_ctx.workflow.timeline.query(wfr_ctx.session_id)
    assert events == [wfr_ctx.returned], f"query should return only the new event, got {events}"


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 timeline 依序記錄了下列事件："))
def wfr_given_events(wfr_ctx: WfrContext, session: str, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["n", "type"], f"unexpected header {header}"
    for n, event_type in rows:
        wfr_ctx.workflow.timeline.emit(session, event_type, {"n": int(n)})
    wfr_ctx.session_id = session


@then(parsers.re(r"在 session `(?P<session>[^`]+)` 查詢的結果依序如下："))
def wfr_then_queries(wfr_ctx: WfrContext, session: str, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["event_type", "category", "limit", "n"], f"unexpected header {header}"
    for event_type, category, limit, numbers in rows:
        limit_value = wfr_cell(limit)
        found = wfr_ctx.workflow.timeline.query(
            session,
            event_type=wfr_cell(event_type),
            category=wfr_cell(category),
            limit=int(limit_value) if limit_value is not None else None,
        )
        expected = [int(n) for n in wfr_list(numbers)]
        assert [e.get("n") for e in found] == expected, (
            f"query(type={event_type}, category={category}, limit={limit}) should give n={expected}, "
            f"got {found}"
        )


@then(
    parsers.re(
        r"`(?P<event_type>[\w:-]+)` 的 latest 是 n 為 (?P<n>\d+) 的事件，"
        r"`(?P<missing>[\w:-]+)` 的 latest 不存在"
    )
)
def wfr_then_latest(wfr_ctx: WfrContext, event_type: str, n: str, missing: str) -> None:
    timeline = wfr_ctx.workflow.timeline
    latest = timeline.latest(wfr_ctx.session_id, event_type)
    assert latest is not None and latest.get("n") == int(n), f"latest({event_type}) should be n={n}: {latest}"
    assert timeline.latest(wfr_ctx.session_id, missing) is None, f"latest({missing}) should be None"


@given(
    parsers.re(
        r"session `(?P<session>[^`]+)` 的 timeline.jsonl 內容為下列各行（`\\xff\\xfe` 為無法解碼的位元組）："
    )
)
def wfr_given_timeline_text(wfr_ctx: WfrContext, session: str, docstring: str) -> None:
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(docstring.encode("utf-8").replace(b"\\xff\\xfe", b"\xff\xfe") + b"\n")
    wfr_ctx.session_id = session


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 timeline.jsonl 內容為下列各行："))
def wfr_given_timeline_lines(wfr_ctx: WfrContext, session: str, docstring: str) -> None:
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(docstring.encode("utf-8") + b"\n")
    wfr_ctx.session_id = session


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 timeline.jsonl 以 UTF-8 BOM 開頭，內容為下列各行："))
def wfr_given_timeline_with_bom(wfr_ctx: WfrContext, session: str, docstring: str) -> None:
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(codecs.BOM_UTF8 + docstring.encode("utf-8") + b"\n")
    wfr_ctx.session_id = session


@then("timeline 路徑是目錄的 session 查詢結果為空，latest 不存在")
def wfr_then_directory_timeline(wfr_ctx: WfrContext) -> None:
    session = "wfr-tl-dir"
    wfr_timeline_file(wfr_ctx, session).mkdir(parents=True)
    timeline = wfr_ctx.workflow.timeline
    assert timeline.query(session) == [], "a timeline that cannot be read should query as empty"
    assert timeline.latest(session, "stage:start") is None


@given(parsers.re(r"`SYNAPSE_TIMELINE_MAX_LINES` 設為 (?P<value>.+)"))
def wfr_given_max_lines(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    if value == "(未設定)":
        monkeypatch.delenv(WFR_MAX_LINES_ENV, raising=False)
    else:
        monkeypatch.setenv(WFR_MAX_LINES_ENV, value)


@given(
    parsers.re(
        r"session `(?P<session>[^`]+)` 的 timeline 已有 (?P<count>\d+) 筆 `(?P<event_type>[\w:-]+)` 事件"
    )
)
def wfr_given_full_timeline(wfr_ctx: WfrContext, session: str, count: str, event_type: str) -> None:
    registry = wfr_ctx.workflow.timeline_events
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [wfr_event_line(n, event_type, registry) for n in range(1, int(count) + 1)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    wfr_ctx.session_id = session


@then(parsers.re(r"timeline.jsonl 恰好 (?P<count>\d+) 行：最舊的一筆被丟棄，最後一行是新事件"))
def wfr_then_trimmed(wfr_ctx: WfrContext, count: str) -> None:
    lines = wfr_lines(wfr_ctx, wfr_ctx.session_id)
    limit = int(count)
    assert len(lines) == limit, f"the timeline should keep exactly {limit} lines, has {len(lines)}"
    numbers = [json.loads(line).get("n") for line in lines[:-1]]
    assert numbers == list(range(2, limit + 1)), (
        f"the kept older events should be n=2..{limit}, got {numbers[:3]}...{numbers[-3:]}"
    )
    assert json.loads(lines[-1]) == wfr_ctx.returned, f"the last line should be the new event: {lines[-1]}"


@given(
    parsers.re(
        r"session `(?P<session>[^`]+)` 的 timeline.jsonl 一開始(?P<start>是空的|有一行無法解碼的位元組)"
    )
)
def wfr_given_timeline_start(wfr_ctx: WfrContext, session: str, start: str) -> None:
    path = wfr_timeline_file(wfr_ctx, session)
    if start != "是空的":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\xff\xfe damaged line\n")
    wfr_ctx.session_id = session


def wfr_named(name: str) -> tuple[str, int]:
    match = re.fullmatch(r"([a-z]+)(\d+)", name)
    assert match and match.group(1) in WFR_EVENT_ALIASES, f"the step cannot read the event name {name!r}"
    return WFR_EVENT_ALIASES[match.group(1)], int(match.group(2))


@given(parsers.re(r"session `(?P<session>[^`]+)` 的 timeline.jsonl 一開始是 (?P<lines>.+) 這幾行"))
def wfr_given_timeline_named_lines(wfr_ctx: WfrContext, session: str, lines: str) -> None:
    """Lines separated by `` / ``: ``(空行)`` is an empty line, ``failure9`` the event of that name and
    number, and ``{U+000D}`` a character inside a line (so ``compact8{U+000D}failure9`` is one line
    holding two events run together by a carriage return)."""
    registry = wfr_ctx.workflow.timeline_events

    def event_line(found: re.Match[str]) -> str:
        event_type, n = wfr_named(found.group(0))
        return wfr_event_line(n, event_type, registry)

    written = [
        "" if part == "(空行)" else cells.expand(re.sub(r"[a-z]+[0-9]+", event_line, part))
        for part in (item.strip() for item in lines.split(" / "))
    ]
    path = wfr_timeline_file(wfr_ctx, session)
    path.parent.mkdir(parents=True, exist_ok=True)
    wfr_ctx.before = "".join(line + "\n" for line in written).encode("utf-8")
    path.write_bytes(wfr_ctx.before)
    wfr_ctx.session_id = session


@then(parsers.re(r"query 依序回傳 (?P<names>[a-z0-9, ]+)，timeline.jsonl 仍有 (?P<count>[0-9]+) 個非空的行"))
def wfr_then_query_names(wfr_ctx: WfrContext, names: str, count: str) -> None:
    found = [(e.get("type"), e.get("n")) for e in wfr_ctx.workflow.timeline.query(wfr_ctx.session_id)]
    expected = [wfr_named(name) for name in wfr_list(names)]
    assert found == expected, f"query should return {expected}, returned {found}"
    text = wfr_timeline_file(wfr_ctx, wfr_ctx.session_id).read_bytes()
    lines = [line for line in text.split(b"\n") if line]
    assert len(lines) == int(count), (
        f"the timeline should still hold {count} non-empty lines (split at \\n only), holds {lines!r}"
    )


@then(
    parsers.re(
        r"timeline.jsonl 未被改寫：原有的各行（空行也在）原樣在前，其後只多了 (?P<name>[a-z]+[0-9]+) 這一行"
    )
)
def wfr_then_not_rewritten(wfr_ctx: WfrContext, name: str) -> None:
    """At the limit nothing is trimmed, so the file is only appended to: the bytes written before the
    emit come first, unchanged, and one line holding the new event follows."""
    assert wfr_ctx.before is not None, "scenario data: the timeline's first lines were not written"
    text = wfr_timeline_file(wfr_ctx, wfr_ctx.session_id).read_bytes()
    assert text.startswith(wfr_ctx.before), (
        f"the timeline's lines (empty ones included) should stay as they were, {wfr_ctx.before!r}; "
        f"the file is now {text!r}"
    )
    added = text[len(wfr_ctx.before) :]
    assert added.endswith(b"\n") and added.count(b"\n") == 1, (
        f"exactly one line should follow them, ending in a newline; {added!r} follows"
    )
    event = json.loads(added)
    assert (event.get("type"), event.get("n")) == wfr_named(name), (
        f"the added line should be {name}, got {event}"
    )


@when(parsers.re(r"在 session `(?P<session>[^`]+)` 依序 emit (?P<names>[a-z0-9, ]+)"))
def wfr_when_emit_named(wfr_ctx: WfrContext, session: str, names: str) -> None:
    for name in wfr_list(names):
        event_type, n = wfr_named(name)
        wfr_ctx.workflow.timeline.emit(session, event_type, {"n": n})


@then(parsers.re(r"timeline.jsonl 依序是 (?P<names>[a-z0-9, ]+)"))
def wfr_then_kept_names(wfr_ctx: WfrContext, names: str) -> None:
    found = [(e.get("type"), e.get("n")) for e in map(json.loads, wfr_lines(wfr_ctx, wfr_ctx.session_id))]
    expected = [wfr_named(name) for name in wfr_list(names)]
    assert found == expected, f"the timeline should keep {expected}, keeps {found}"


@when("以下列類型各啟動一個 workflow，並讓每個 stage 的 agent 依序以 PASS 結束：")
def wfr_when_walk_types(wfr_ctx: WfrContext, datatable: list[list[str]]) -> None:
    header, *rows = datatable
    assert header == ["workflowType", "stages", "並行委派"], f"unexpected header {header}"
    wfr_ctx.stage_rows = []
    for workflow_type, stages, parallel in rows:
        session = f"wfr-type-{workflow_type}"
        wfr_ctx.workflow.state.init(session, workflow_type)
        keys = list(wfr_disk_state(wfr_ctx, session)["stages"])
        hints: list[str] = []
        for key in keys:
            event = wfr_stop_event(session, WF_STAGE_AGENTS[key.split(":")[0]], "PASS")
            result = wfr_ctx.workflow.on_stop(event)["result"]
            prefix = "⏭️ 下一步：並行委派 "
            hints += [line.removeprefix(prefix) for line in result.split("\n") if line.startswith(prefix)]
        wfr_ctx.stage_rows.append(
            {
                "type": workflow_type,
                "keys": ", ".join(keys),
                "expected_keys": stages,
                "hints": "；".join(hints) or "-",
                "expected_hints": parallel,
            }
        )


@then("每個 workflow.json 的 stage 依序如表，每次 hook 的下一步提示中「並行委派」依序如表")
def wfr_then_walk_types(wfr_ctx: WfrContext) -> None:
    wrong = [
        row
        for row in wfr_ctx.stage_rows
        if (row["keys"], row["hints"]) != (row["expected_keys"], row["expected_hints"])
    ]
    assert not wrong, f"these workflow types differ from the table: {wrong}"


@then(parsers.re(r"workflow.json 以原文保存 `(?P<text>[^`]+)`，不轉成 \\u 跳脫序列"))
def wfr_then_state_text_as_written(wfr_ctx: WfrContext, text: str) -> None:
    raw = wfr_state_file(wfr_ctx, wfr_ctx.session_id).read_text(encoding="utf-8")
    assert text in raw, f"workflow.json should hold {text!r} as written, not escaped:\n{raw}"


@given(parsers.re(r"session `(?P<session>[^`]+)` 的目錄中有 pre-task hook 寫下的 `active-agent.json`"))
def wfr_given_active_agent_file(wfr_ctx: WfrContext, session: str) -> None:
    path = wfr_session_dir(wfr_ctx, session) / "active-agent.json"
    path.write_text(json.dumps({"agent": "planner", "stage": "PLAN"}) + "\n", encoding="utf-8")


@then(parsers.re(r"session `(?P<session>[^`]+)` 的 `active-agent.json` 已被 hook 刪除"))
def wfr_then_active_agent_file_gone(wfr_ctx: WfrContext, session: str) -> None:
    path = wfr_session_dir(wfr_ctx, session) / "active-agent.json"
    assert not path.exists(), f"the hook should delete {path} when an agent finishes"


@then("沒有 timeline 檔的 session 查詢結果為空，latest 不存在")
def wfr_then_missing_timeline(wfr_ctx: WfrContext) -> None:
    session = "wfr-tl-missing"
    assert not wfr_timeline_file(wfr_ctx, session).exists()
    timeline = wfr_ctx.workflow.timeline
    assert timeline.query(session) == [], "a session without timeline should query as empty"
    assert timeline.latest(session, "stage:start") is None
    assert not wfr_session_dir(wfr_ctx, session).exists(), "reading must not create the session directory"
