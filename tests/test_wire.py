"""The wire protocol: the kit's client against the reference server, and broken servers the wire run catches.

The spec run over the wire (``pytest features/ --synapse-server=...``) is CI's ``make spec-wire``; these
tests pin what that run relies on: crashes are reported and survived, callbacks nest at any depth, values
JSON cannot hold survive the trip, identity holds, the protocol table is current, and a server that breaks
a rule only its own process shows (its reads, the files it opens, a delete that really fails) fails the
scenarios of that rule.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from synapse_spec import probes
from synapse_spec.protocol import table
from synapse_spec.protocol.codec import Codec, Record
from synapse_spec.protocol.validate import message_validator
from synapse_spec.remote import RemoteClient, RemoteImplementation, ServerCrashed, emit_log, server_home

ROOT = Path(__file__).resolve().parent.parent
SERVER = f"{sys.executable} -m synapse_ref.server"


@pytest.fixture(scope="module")
def client() -> Iterator[RemoteClient]:
    remote = RemoteClient(SERVER, validator=message_validator())
    yield remote
    remote.close()


@pytest.fixture
def impl(client: RemoteClient) -> Iterator[RemoteImplementation]:
    yield client.implementation("tests/test_wire.py")
    assert client.end_scenario() == [], "every message should match the protocol's schemas"


# --------------------------------------------------------------------------------------------------------
# The client
# --------------------------------------------------------------------------------------------------------


def test_a_crash_names_the_scenario_and_the_servers_last_words_and_the_next_scenario_gets_a_new_server() -> (
    None
):
    remote = RemoteClient(f"{SERVER} --impl tests.broken_servers:crashes_on_reader")
    try:
        first = remote.implementation("features/x.py::test_dies")
        with pytest.raises(ServerCrashed) as caught:
            first.conversation_reader()
        message = str(caught.value)
        assert "features/x.py::test_dies" in message
        assert "exited with status 3" in message
        assert "about to die on purpose" in message
        second = remote.implementation("features/x.py::test_next")
        assert second.server.pid != first.server.pid, "a new server process should serve the next scenario"
        assert second.stop_hook_marker == "[StopHook]"
    finally:
        remote.close()


def test_a_server_that_does_not_answer_in_time_is_stopped_and_the_next_scenario_gets_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server stuck in one call would make every later call of the run wait for its timeout too."""
    monkeypatch.setattr("synapse_spec.remote.DEFAULT_TIMEOUT", 3.0)
    remote = RemoteClient(f"{SERVER} --impl tests.broken_servers:hangs_on_reader")
    try:
        first = remote.implementation("features/x.py::test_hangs")
        with pytest.raises(TimeoutError):
            first.conversation_reader()
        with pytest.raises(ServerCrashed, match="did not answer call within 3 s, so the kit stopped it"):
            first.conversation_reader()
        # the server itself is stopped, not only the shell that started it
        assert _stopped(first.server.pid), f"the server process {first.server.pid} is still running"
        second = remote.implementation("features/x.py::test_next")
        assert second.server.pid != first.server.pid
        assert second.stop_hook_marker == "[StopHook]"
    finally:
        remote.close()


def _stopped(pid: int, within: float = 5.0) -> bool:
    """Gone, or dead and not yet reaped by its new parent."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


class WrappedStorage:
    """A kit port around a server object: each of its members calls the server back from inside a
    synchronous callback (the nesting the protocol's §4.2 requires)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.saved: list[str] = []

    @property
    def offloaded_dir(self) -> Path:
        return Path(self.inner.offloaded_dir)

    def save(self, content: str, ext: str | None = None) -> str:
        path = str(self.inner.save(content, ext))
        self.saved.append(path)
        return path

    def list_files(self) -> list[str]:
        return list(self.inner.list_files())

    def remove(self, path: str) -> None:
        self.inner.remove(path)


class NestingCounter:
    """A token counter that asks the server something on every count: a request nested in a callback."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self.seen_files: list[int] = []

    def count_tokens(self, text: str) -> int:
        self.seen_files.append(len(self.storage.list_files()))
        return len(text)


@pytest.mark.parametrize("channel", ["stdin", "fd"])
def test_synchronous_callbacks_nest_requests_to_the_server_at_any_depth(
    impl: RemoteImplementation, tmp_path: Path, channel: str
) -> None:
    if channel == "fd":
        remote = RemoteClient(f"{SERVER} --sync-channel fd", validator=message_validator())
        try:
            served = remote.implementation("tests/test_wire.py")
            assert served.server.sync_channel == "fd"
            _offload_through_nested_callbacks(served, tmp_path)
            assert remote.end_scenario() == []
        finally:
            remote.close()
    else:
        _offload_through_nested_callbacks(impl, tmp_path)


def _offload_through_nested_callbacks(impl: RemoteImplementation, tmp_path: Path) -> None:
    storage = WrappedStorage(impl.offload_storage(tmp_path / "session"))
    counter = NestingCounter(storage)
    manager = impl.context_manager(
        storage, offload_threshold=10, scan_ratio=1.0, min_chars=5, token_counter=counter
    )
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "run it"}]},
        {"role": "tool", "content": [{"type": "text", "text": "x" * 200}], "toolCallId": "c1"},
        {"role": "user", "content": [{"type": "text", "text": "thanks"}]},
    ]
    result = manager.offload_if_needed(messages)
    assert result.offloaded_count == 1
    assert len(storage.saved) == 1 and Path(storage.saved[0]).read_text(encoding="utf-8") == "x" * 200
    assert counter.seen_files and counter.seen_files[-1] == 1, "the nested calls should see the saved file"
    assert isinstance(result, Record) and result.messages[1]["content"][0]["text"].endswith(storage.saved[0])


@dataclass
class HookContext:
    session_id: str | None
    cwd: str
    messages: list[dict[str, Any]]
    final_response: str
    on_progress: Any
    progress: list[str] = field(default_factory=list)


def test_values_json_cannot_hold_and_identities_survive_the_trip(impl: RemoteImplementation) -> None:
    registry = impl.stop_hook_registry()
    odd = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "set": {1, 2}, "$dollar": "kept"}

    async def hook(context: Any) -> dict[str, Any]:
        await context.on_progress("working")
        return {"message": "done", "values": odd, "cwd": context.cwd}

    registry.register("odd", hook)
    progress: list[str] = []

    async def on_progress(text: str) -> None:
        progress.append(text)

    context = HookContext("s1", "/work", [], "final", on_progress)
    [outcome] = asyncio.run(registry.execute_all(context))
    values = outcome["values"]
    assert math.isnan(values["nan"]) and values["inf"] == math.inf and values["-inf"] == -math.inf
    assert values["set"] == {1, 2} and values["$dollar"] == "kept"
    assert outcome["cwd"] == "/work" and progress == ["working"]

    loaded: list[Any] = []
    executor = impl.stop_hook_executor(enabled=True, registry=registry, loader=loaded.append)
    executor.init()
    assert loaded == [registry] and loaded[0] is registry, "the loader gets the very registry it was given"
    assert impl.stop_hook_registry() is not registry
    lone = "stdin text \ud800 with a lone surrogate"
    assert impl.format_stream_text(lone, is_tty=False) == lone


def test_the_codec_round_trips_special_values_without_a_server() -> None:
    codec = Codec()
    value = {"a": [math.inf, {"$x": 1}], "b": frozenset({"x"}), "c": RuntimeError("boom")}
    encoded = codec.encode_any(value)
    assert encoded["a"] == [{"$float": "Infinity"}, {"$object": {"$x": 1}}]
    decoded = codec.decode_any(encoded)
    assert decoded["a"] == [math.inf, {"$x": 1}] and decoded["b"] == {"x"}
    assert type(decoded["c"]).__name__ == "RuntimeError" and isinstance(decoded["c"], RuntimeError)
    assert str(decoded["c"]) == "boom"


def test_a_result_json_cannot_carry_is_answered_with_an_error_not_left_unanswered() -> None:
    from synapse_spec.protocol.rpc import INTERNAL_ERROR, Peer, dumps

    lines: list[str] = []
    peer = Peer(lambda message, sync: lines.append(dumps(message)))
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    peer.respond(7, deep)
    assert len(lines) == 1
    reply = json.loads(lines[0])
    assert reply["id"] == 7 and "result" not in reply
    assert reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["message"].startswith("the response cannot be encoded: RecursionError")


def test_errors_keep_their_name_and_message(impl: RemoteImplementation, tmp_path: Path) -> None:
    workflow = impl.staged_workflow(tmp_path, clock=lambda: datetime.now(timezone.utc))
    with pytest.raises(Exception) as caught:
        workflow.timeline.emit("s1", "no:such-event", {})
    assert "未知的 timeline 事件類型：no:such-event" in str(caught.value)
    assert type(caught.value).__name__ not in ("ServerCrashed", "ProtocolError")


def test_the_reference_server_needs_neither_pytest_nor_the_kits_client() -> None:
    probe = (
        "import sys, synapse_ref.server; print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pytest', '_pytest', 'jsonschema') or m in ('synapse_spec.remote', 'synapse_spec.plugin')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


# --------------------------------------------------------------------------------------------------------
# The protocol's own documents
# --------------------------------------------------------------------------------------------------------


def test_appendix_a_of_protocol_md_is_the_member_table_generated_from_the_contract() -> None:
    text = table.PROTOCOL_MD.read_text(encoding="utf-8")
    assert table.document_with_table(text) == text, (
        "PROTOCOL.md's Appendix A is out of date: run python -m synapse_spec.protocol table --write"
    )


def test_the_validator_names_the_message_and_the_rule_it_breaks() -> None:
    check = message_validator()
    request = {"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"protocolVersion": "1.0"}}
    assert check("kit>server", request) is None
    problem = check("server>kit", {"jsonrpc": "2.0", "id": 1, "result": {"name": "x"}})
    assert problem is not None and problem.startswith("hello.schema.json result") and "required" in problem
    log = {"jsonrpc": "2.0", "method": "log", "params": {"level": "warn", "logger": "synapse", "message": ""}}
    assert "log.schema.json" in (check("server>kit", log) or "")


def test_a_server_home_left_by_a_killed_kit_is_removed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead, alive = int(ended.stdout), os.getpid()
    for name in (
        f"synapse-server-home-{dead}-abc",
        f"synapse-server-home-{alive}-def",
        "synapse-server-home-x",
    ):
        (tmp_path / name / ".synapse").mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    home = Path(server_home())
    left = sorted(p.name for p in tmp_path.iterdir())
    assert home.name.startswith(f"synapse-server-home-{alive}-") and home.is_dir()
    assert f"synapse-server-home-{dead}-abc" not in left, left
    assert {f"synapse-server-home-{alive}-def", "synapse-server-home-x", home.name} <= set(left), left


def test_a_logs_data_travels_beside_its_message_and_never_into_it(caplog: pytest.LogCaptureFixture) -> None:
    params = {
        "level": "warning",
        "logger": "synapse.agent.runner",
        "message": "Tool execution failed (counted: 1/2, consecutive: 1/3)",
        "data": {
            "countableFailureIds": ["call-1"],
            "errors": ["boom"],
            "path": 'C:\\a "b"',
            "at": {"line": 3},
        },
    }
    assert message_validator()("server>kit", {"jsonrpc": "2.0", "method": "log", "params": params}) is None
    with caplog.at_level("WARNING", logger="synapse"):
        emit_log(params)
    (record,) = caplog.records
    assert (record.name, record.levelname) == ("synapse.agent.runner", "WARNING")
    assert record.getMessage() == "Tool execution failed (counted: 1/2, consecutive: 1/3)"
    assert probes.logged_text(record) == (
        "Tool execution failed (counted: 1/2, consecutive: 1/3) "
        'countableFailureIds=call-1 errors=boom path=C:\\a "b" at.line=3'
    )


# --------------------------------------------------------------------------------------------------------
# Broken servers: the wire run catches what only their process shows
# --------------------------------------------------------------------------------------------------------


def _run_spec(area: str, ids: str, server: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_") and k != "PYTEST_ADDOPTS"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"features/{area}",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-o",
            f"bdd_features_base_dir=features/{area}",
            "--synapse-report=",
            "-q",
            "-m",
            ids,
            f"--synapse-server={server}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize(
    ("broken", "area", "scenario", "expected"),
    [
        ("whole_file_tail_read", "reader", "RDR-022", "reading the tail must cost in proportion to maxChars"),
        ("symlink_following_restore", "context", "CTX-012", "the out-of-scope file must not be opened"),
        ("cleanup_stops_at_first_failure", "context", "CTX-019", "should have been deleted despite"),
    ],
)
def test_the_wire_run_fails_a_server_that_breaks_a_rule_only_its_process_shows(
    broken: str, area: str, scenario: str, expected: str
) -> None:
    run = _run_spec(area, scenario, f"{SERVER} --impl tests.broken_servers:{broken}")
    assert run.returncode == 1, run.stdout[-3000:]
    assert expected in run.stdout, run.stdout[-3000:]
    assert "failed" in run.stdout.strip().splitlines()[-1], run.stdout[-3000:]
    reference = _run_spec(area, scenario, SERVER)
    assert reference.returncode == 0, reference.stdout[-3000:]


def test_the_hello_schema_names_exactly_the_contracts_capabilities() -> None:
    import json

    from synapse_spec.contract import CAPABILITIES

    hello = table.PROTOCOL_MD.parent / "schemas" / "hello.schema.json"
    schema = json.loads(hello.read_text(encoding="utf-8"))
    found: list[list[str]] = []

    def visit(node: object) -> None:
        if isinstance(node, dict):
            capabilities = node.get("properties", {}).get("capabilities") if "properties" in node else None
            if isinstance(capabilities, dict):
                found.append(capabilities["items"]["enum"])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(schema)
    assert found and all(sorted(names) == sorted(CAPABILITIES) for names in found), found


def _report(tmp_path: Path, area: str, ids: str, server: str, *extra: str) -> dict[str, str]:
    """Scenario id -> status (and message) of a wire run, from its JSON report; of a scenario's examples,
    the first that did not pass."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_") and k != "PYTEST_ADDOPTS"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"features/{area}",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-q",
            "-m",
            ids,
            f"--synapse-server={server}",
            f"--synapse-report={tmp_path}",
            *extra,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    report = json.loads((tmp_path / "synapse-spec.json").read_text(encoding="utf-8"))
    statuses: dict[str, str] = {}
    for scenario in report["scenarios"]:
        status = scenario["status"] + (f": {scenario['message']}" if scenario["message"] else "")
        if statuses.get(scenario["id"], "passed") == "passed":
            statuses[scenario["id"]] = status
    return statuses


def test_live_settings_scenarios_are_not_applicable_to_a_server_that_reads_settings_at_build(
    tmp_path: Path,
) -> None:
    statuses = _report(
        tmp_path, "reader", "RDR-018 or RDR-001", f"{sys.executable} -m tests.wire_servers build"
    )
    assert statuses["RDR-001"] == "passed"
    assert statuses["RDR-018"].startswith(
        "not-applicable: changes a setting of a component that already exists"
    )


def test_a_server_that_reads_settings_only_at_start_up_is_restarted_with_the_scenarios_settings(
    tmp_path: Path,
) -> None:
    """RDR-024 sets the summary limit before the reader is built: the server answers ``configure`` with
    ``{"restart": true}`` and the kit starts it again with the setting in its environment."""
    server = f"{sys.executable} -m tests.wire_servers restart"
    statuses = _report(tmp_path, "reader", "RDR-024 or RDR-025", server)
    assert {k: v.split(":")[0] for k, v in statuses.items()} == {
        "RDR-024": "passed",
        "RDR-025": "not-applicable",
    }


def test_validation_fails_the_scenario_at_a_message_the_schemas_reject(tmp_path: Path) -> None:
    server = f"{sys.executable} -m tests.wire_servers bad-log"
    assert _report(tmp_path / "plain", "reader", "RDR-001", server)["RDR-001"] == "passed"
    checked = _report(tmp_path / "checked", "reader", "RDR-001", server, "--synapse-wire-validate")
    assert checked["RDR-001"].startswith(("failed", "errored")), checked
    assert "invalid wire messages" in checked["RDR-001"] and "log.schema.json" in checked["RDR-001"], checked
