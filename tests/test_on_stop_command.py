"""The SubagentStop hook as Claude Code runs it: a real process fed a recorded event on stdin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_spec import fuzz

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "workflow"
SESSION_ID = "3f2b6c1e-8d2a-4c55-9b1e-0a7d2f9c4e11"


class Hook:
    """Runs ``python -m synapse_ref.workflow`` against a workflow root below ``tmp_path``."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.root = tmp_path / "workflow-home"
        self.session_dir = self.root / "sessions" / SESSION_ID
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(tmp_path / "home"),
            "SYNAPSE_WORKFLOW_HOME": str(self.root),
            "PYTHONIOENCODING": "utf-8",
        }

    def install(self, state_fixture: str, timeline_fixture: str | None = None) -> None:
        self.session_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / state_fixture, self.session_dir / "workflow.json")
        if timeline_fixture is not None:
            shutil.copy(FIXTURES / timeline_fixture, self.session_dir / "timeline.jsonl")

    def transcript(self, size: int) -> Path:
        path = self.tmp / f"{SESSION_ID}.jsonl"
        with path.open("wb") as handle:
            handle.truncate(size)
        return path

    def event(self, fixture: str, transcript: Path | None = None, **changes: Any) -> str:
        event = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
        if transcript is not None:
            event["transcript_path"] = str(transcript)
        event.update(changes)
        return json.dumps(event, ensure_ascii=False)

    def run(self, stdin: str | bytes, **env: str) -> tuple[dict[str, Any], str]:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        done = subprocess.run(
            [sys.executable, "-m", "synapse_ref.workflow"],
            input=data,
            capture_output=True,
            env={**self.env, **env},
            timeout=60,
            check=False,
        )
        stdout, stderr = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
        assert done.returncode == 0, f"the hook must exit 0, got {done.returncode}: {stderr}"
        assert "Traceback" not in stderr, f"the hook must not print a traceback: {stderr}"
        answer = json.loads(stdout)
        assert isinstance(answer, dict) and set(answer) == {"result"}, (
            f"stdout must be {{'result': ...}}: {stdout!r}"
        )
        assert isinstance(answer["result"], str)
        return answer, stderr

    def timeline(self) -> list[dict[str, Any]]:
        path = self.session_dir / "timeline.jsonl"
        events = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return [e for e in events if isinstance(e, dict)]

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads((self.session_dir / "workflow.json").read_text(encoding="utf-8"))
        return state


@pytest.fixture
def hook(tmp_path: Path) -> Hook:
    return Hook(tmp_path)


def test_pass_with_large_transcript_suggests_compact(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json", "timeline_never_compacted.jsonl")
    transcript = hook.transcript(6_500_000)

    answer, stderr = hook.run(hook.event("subagent_stop_developer_pass.json", transcript))

    lines = answer["result"].split("\n")
    assert lines[0] == "✅ 💻 開發完成"
    suggestion = next(i for i, line in enumerate(lines) if "/compact" in line)
    assert (
        lines[suggestion] == "💾 transcript 已達 6.5MB，建議在繼續下一個 stage 前執行 /compact 壓縮 context。"
    )
    assert suggestion > 0
    assert stderr == ""
    kinds = [e["type"] for e in hook.timeline()[-3:]]
    assert kinds == ["agent:complete", "stage:complete", "session:compact-suggestion"]
    event = hook.timeline()[-1]
    assert event["label"] == "Compact 建議" and event["category"] == "session"
    assert (event["transcriptSize"], event["stage"], event["agent"]) == (6_500_000, "DEV", "developer")
    state = hook.state()
    assert state["stages"]["DEV"]["status"] == "completed" and state["stages"]["DEV"]["result"] == "pass"
    assert state["currentStage"] == "REVIEW"


def test_pass_right_after_a_compact_does_not_suggest(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json", "timeline_compacted_recently.jsonl")
    transcript = hook.transcript(7_000_000)

    answer, _ = hook.run(hook.event("subagent_stop_developer_pass.json", transcript))

    assert "開發完成" in answer["result"] and "/compact" not in answer["result"]
    assert all(e["type"] != "session:compact-suggestion" for e in hook.timeline())


def test_threshold_comes_from_the_environment(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json")
    transcript = hook.transcript(2_000_000)

    quiet, _ = hook.run(hook.event("subagent_stop_developer_pass.json", transcript))
    assert "/compact" not in quiet["result"]

    hook.install("workflow_standard_dev_active.json")
    loud, _ = hook.run(
        hook.event("subagent_stop_developer_pass.json", transcript), SYNAPSE_COMPACT_THRESHOLD_MB="1"
    )
    assert "2.0MB" in loud["result"] and "/compact" in loud["result"]


def test_fail_verdict_never_suggests(hook: Hook) -> None:
    hook.install("workflow_standard_test_active.json")
    transcript = hook.transcript(8_000_000)

    answer, _ = hook.run(hook.event("subagent_stop_tester_fail.json", transcript))

    assert answer["result"].startswith("❌ 🧪 測試失敗（1/3）")
    assert "compact" not in answer["result"].lower() and "8.0MB" not in answer["result"]
    kinds = [e["type"] for e in hook.timeline()]
    assert kinds == ["agent:error", "agent:complete", "stage:complete", "stage:retry"]
    state = hook.state()
    assert state["failCount"] == 1 and state["activeAgents"] == {}
    assert state["stages"]["TEST"] == {**state["stages"]["TEST"], "status": "completed", "result": "fail"}


def test_corrupt_timeline_keeps_the_hook_working_without_suggestion(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json", "timeline_corrupt.jsonl")
    transcript = hook.transcript(6_000_000)

    answer, _ = hook.run(hook.event("subagent_stop_developer_pass.json", transcript))

    assert answer["result"].startswith("✅ 💻 開發完成")
    assert "/compact" not in answer["result"]
    raw = (hook.session_dir / "timeline.jsonl").read_text(encoding="utf-8")
    assert raw.startswith((FIXTURES / "timeline_corrupt.jsonl").read_text(encoding="utf-8")), (
        "nothing is lost"
    )


def test_unwritable_timeline_loses_no_message(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json")
    (hook.session_dir / "timeline.jsonl").mkdir()
    transcript = hook.transcript(6_000_000)

    answer, stderr = hook.run(hook.event("subagent_stop_developer_pass.json", transcript))

    assert answer["result"].startswith("✅ 💻 開發完成")
    assert "⏭️ 下一步：" in answer["result"]
    assert "stage:complete" in stderr
    assert hook.state()["stages"]["DEV"]["status"] == "completed"


def test_session_id_falls_back_to_the_environment(hook: Hook) -> None:
    hook.install("workflow_standard_dev_active.json")

    answer, _ = hook.run(
        hook.event("subagent_stop_developer_pass.json", session_id=""), CLAUDE_SESSION_ID=SESSION_ID
    )

    assert answer["result"].startswith("✅ 💻 開發完成")


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("", "empty input"),
        ("   \n", "empty input"),
        ('{"session_id": "x", ', "invalid JSON"),
        (b"\xff\xfe{not json", "invalid JSON"),
        ("[1, 2, 3]", "expected a JSON object"),
        ('"just text"', "expected a JSON object"),
    ],
)
def test_bad_input_gives_an_empty_result(hook: Hook, stdin: str | bytes, reason: str) -> None:
    answer, stderr = hook.run(stdin)

    assert answer == {"result": ""}
    assert reason in stderr


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"session_id": "0000-unknown-session"}, "has no workflow state"),
        ({"session_id": "../../etc"}, "invalid session id"),
        ({"agent_type": "ot:grader"}, "works on no workflow stage"),
        ({"agent_type": ""}, "no agent_type"),
    ],
)
def test_events_the_hook_cannot_place_give_an_empty_result(
    hook: Hook, changes: dict[str, str], reason: str
) -> None:
    hook.install("workflow_standard_dev_active.json")

    event = {**json.loads(hook.event("subagent_stop_developer_pass.json")), **changes}
    answer, stderr = hook.run(json.dumps(event))

    assert answer == {"result": ""}
    assert reason in stderr
    assert hook.state()["stages"]["DEV"]["status"] == "active", "an event that is not placed changes nothing"


def test_damaged_state_file_gives_an_empty_result(hook: Hook) -> None:
    hook.session_dir.mkdir(parents=True)
    (hook.session_dir / "workflow.json").write_text('{"sessionId": "3f2b', encoding="utf-8")

    answer, stderr = hook.run(hook.event("subagent_stop_developer_pass.json"))

    assert answer == {"result": ""}
    assert "workflow state" in stderr
    assert (hook.session_dir / "workflow.json").read_text(encoding="utf-8") == '{"sessionId": "3f2b', (
        "kept as is"
    )


# Each example starts a process: the quick profile tries a few, the long one the full count.
PROCESS_CI_EXAMPLES = 25


def _stdin_bytes() -> st.SearchStrategy[bytes]:
    """Generated stdin as bytes: text and JSON (lone surrogates kept as invalid UTF-8) and raw bytes."""
    text = fuzz.hostile_stdin(session_ids=[SESSION_ID]).map(lambda s: s.encode("utf-8", "surrogatepass"))
    return st.one_of(text, st.binary(max_size=200))


KNOWN_HOSTILE = [
    b"9" * 5000,
    b"[" * 100_000 + b"]" * 100_000,
    json.dumps({"session_id": "\ud800", "agent_type": "developer"}).encode(),
    b'{"session_id": "' + "\ud800".encode("utf-8", "surrogatepass") + b'", "agent_type": "developer"}',
]


def test_the_hook_process_answers_any_stdin_with_exit_0(tmp_path: Path) -> None:
    """Whatever arrives on stdin, the real process prints ``{"result": str}`` as UTF-8 and exits 0."""
    hook = Hook(tmp_path)
    hook.install("workflow_standard_dev_active.json", "timeline_never_compacted.jsonl")
    tried: list[bytes] = []

    def answers(stdin: bytes) -> None:
        tried.append(stdin)
        hook.run(stdin)

    for stdin in KNOWN_HOSTILE:
        answers(stdin)
    cap = PROCESS_CI_EXAMPLES if fuzz.profile_name() == "ci" else None
    fuzz.profile(cap)(given(_stdin_bytes())(answers))()
    assert len(tried) > len(KNOWN_HOSTILE)
