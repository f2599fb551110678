"""The reference's Bash toolset and abort watcher beyond what the scenarios pin: bad tool calls, exit
statuses, and cancellation from outside the runner."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from synapse_ref.agent.abort import AbortError, until_aborted
from synapse_ref.agent.bash_tool import BashToolset, _group_running, run_command
from synapse_spec.probes import process_running, read_pid, survivors


def _call(command: object, name: str = "Bash") -> dict[str, Any]:
    return {"id": "c1", "name": name, "arguments": json.dumps({"command": command})}


async def _written(path: Path) -> None:
    """Until the command has written its pid (a bounded wait: a command that never does fails the test)."""
    for _ in range(3000):
        if path.is_file() and path.read_text(encoding="utf-8").endswith("\n"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the command never wrote {path.name}")


def test_a_command_that_succeeds_gives_its_stdout_then_its_stderr(tmp_path: Path) -> None:
    toolset = BashToolset(str(tmp_path))
    result = asyncio.run(toolset.handle(_call("echo out; echo err >&2; pwd")))
    assert not result.is_error
    assert result.output == f"out\n{tmp_path}\n\n\n[stderr]\nerr\n"
    assert result.message == ""


@pytest.mark.parametrize(
    ("command", "category"),
    [("exit 3", "execution_error"), ("no-such-command-anywhere", "command_not_found")],
)
def test_a_failing_command_is_an_error_with_its_category(tmp_path: Path, command: str, category: str) -> None:
    result = asyncio.run(BashToolset(str(tmp_path)).handle(_call(command)))
    assert result.is_error
    assert (result.extras or {}).get("failureCategory") == category
    assert result.message.startswith("Command failed with exit code ")


@pytest.mark.parametrize(
    "call",
    [
        _call(""),
        _call(42),
        {"id": "c1", "name": "Bash", "arguments": "{not json"},
        {"id": "c1", "name": "Bash", "arguments": "[1, 2]"},
    ],
)
def test_bad_arguments_are_a_usage_error_not_a_crash(tmp_path: Path, call: dict[str, Any]) -> None:
    result = asyncio.run(BashToolset(str(tmp_path)).handle(call))
    assert result.is_error
    assert (result.extras or {}).get("failureCategory") == "invalid_usage"


def test_an_unknown_tool_is_reported_as_such(tmp_path: Path) -> None:
    toolset = BashToolset(str(tmp_path))
    result = asyncio.run(toolset.handle(_call("ls", name="Read")))
    assert result.is_error and "Unknown tool: Read" in result.message
    assert toolset.get_tool("Read") is None and toolset.get_tool("Bash") is not None


def test_cancelling_a_command_ends_its_group_even_when_it_ignores_sigterm(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = "trap '' TERM; sleep 300 > /dev/null 2>&1 & echo $! > child.pid; echo $$ > pid; sleep 30"

    async def scenario() -> None:
        task = asyncio.ensure_future(run_command(script, str(tmp_path), grace=0.2))
        await _written(tmp_path / "pid")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    caplog.set_level(logging.INFO, logger="synapse")
    asyncio.run(scenario())
    pids = [read_pid(tmp_path / "pid"), read_pid(tmp_path / "child.pid")]
    assert survivors(pids) == []
    assert not _group_running(pids[0])
    assert [r.levelname for r in caplog.records] == ["INFO"], "the group was gone at once: no warning"


def test_a_group_runs_while_a_member_runs() -> None:
    assert _group_running(os.getpgrp())


def test_a_caller_cancelled_while_watching_cancels_the_work_too(tmp_path: Path) -> None:
    class Never:
        aborted = False

    async def scenario() -> None:
        work = run_command("echo $$ > pid; sleep 30", str(tmp_path), grace=0.2)
        task = asyncio.ensure_future(until_aborted(work, Never(), interval=0.01))
        await _written(tmp_path / "pid")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert not process_running(read_pid(tmp_path / "pid"))


def test_work_that_ends_first_costs_no_read_and_an_abort_raises_abort_error() -> None:
    class Flag:
        def __init__(self, value: bool) -> None:
            self.value = value
            self.reads = 0

        @property
        def aborted(self) -> bool:
            self.reads += 1
            return self.value

    async def quick() -> str:
        return "done"

    async def slow() -> str:
        await asyncio.sleep(30)
        return "late"

    unread = Flag(False)
    assert asyncio.run(until_aborted(quick(), unread, interval=0.05)) == "done"
    assert unread.reads == 0
    assert asyncio.run(until_aborted(quick(), None)) == "done"
    with pytest.raises(AbortError):
        asyncio.run(until_aborted(slow(), Flag(True), interval=0.01))
