"""The REPL as a person uses it: a real pseudo-terminal, keys typed one by one (pexpect)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from synapse_ref.repl.app import PROMPT, Repl

TIMEOUT = 30
SHOWN_PROMPT = PROMPT.rstrip()
CTRL_A, CTRL_C, CTRL_D, UP = "\x01", "\x03", "\x04", "\x1b[A"


def _environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAPSE_")}
    env.update(HOME=str(home.parent), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1")
    return env


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "synapse-home"


@pytest.fixture
def repl(home: Path) -> Iterator[pexpect.spawn[str]]:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "synapse_ref", "--home", str(home)],
        env=_environment(home),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 200),
    )
    child.expect_exact(SHOWN_PROMPT)
    yield child
    child.close(force=True)


def _say(child: pexpect.spawn[str], text: str) -> None:
    child.send(text + "\r")


def test_line_editing_moves_the_cursor_and_the_history_recalls_earlier_lines(
    repl: pexpect.spawn[str], home: Path
) -> None:
    repl.send("world")
    repl.send(CTRL_A)
    _say(repl, "hello ")
    repl.expect_exact("Echo: hello world")
    repl.expect_exact(SHOWN_PROMPT)
    repl.send(UP)
    repl.send("\r")
    repl.expect_exact("Echo: hello world")
    repl.expect_exact(SHOWN_PROMPT)
    _say(repl, "/exit")
    repl.expect_exact("Goodbye.")
    repl.expect(pexpect.EOF)
    assert "hello world" in (home / "history").read_text(encoding="utf-8"), "history is kept across runs"


def test_ctrl_c_clears_the_line_being_typed(repl: pexpect.spawn[str], home: Path) -> None:
    repl.send("this line is thrown away")
    repl.send(CTRL_C)
    repl.expect_exact(SHOWN_PROMPT)
    _say(repl, "kept")
    repl.expect(r"Echo: ([^\r\n]*)")
    assert isinstance(repl.match, re.Match)
    assert repl.match.group(1).strip() == "kept", "the cleared text must not reach the model"
    assert "thrown away" not in (home / "history").read_text(encoding="utf-8")


def test_ctrl_d_on_an_empty_line_leaves_with_status_zero(repl: pexpect.spawn[str]) -> None:
    repl.send(CTRL_D)
    repl.expect_exact("Goodbye.")
    repl.expect(pexpect.EOF)
    repl.close()
    assert repl.exitstatus == 0


def test_cost_after_clear_reads_like_a_fresh_session(repl: pexpect.spawn[str]) -> None:
    _say(repl, "/cost")
    repl.expect(r"Token: [^\r\n]*")
    fresh = repl.after
    _say(repl, "something to pay for")
    repl.expect_exact("Echo: something to pay for")
    _say(repl, "/clear")
    repl.expect_exact("Conversation history cleared.")
    _say(repl, "/cost")
    repl.expect(r"Token: [^\r\n]*")
    assert repl.after == fresh, (
        f"/cost after /clear should equal a fresh session's: {repl.after!r} vs {fresh!r}"
    )


def test_context_shows_the_tokens_against_both_thresholds(home: Path) -> None:
    env = _environment(home) | {
        "SYNAPSE_OFFLOAD_THRESHOLD": "1000",
        "SYNAPSE_COMPACT_TRIGGER_THRESHOLD": "300",
    }
    child = pexpect.spawn(
        sys.executable, ["-m", "synapse_ref", "--home", str(home)], env=env, encoding="utf-8", timeout=TIMEOUT
    )
    try:
        child.expect_exact(SHOWN_PROMPT)
        _say(child, "/context")
        child.expect(r"Context: 0 tokens in 0 messages")
        child.expect(r"offload threshold: +1,000 tokens")
        child.expect(r"compaction trigger: +300 tokens")
    finally:
        child.close(force=True)


class _Hanging:
    """A runner whose turn never ends by itself: only an interrupt can stop it."""

    def __init__(self) -> None:
        self.signal: object | None = None

    async def run(self, line: str, *, signal: object) -> str:
        self.signal = signal
        await asyncio.Event().wait()
        return "never"


def test_ctrl_c_interrupts_a_running_turn_and_aborts_its_signal(tmp_path: Path) -> None:
    class Out:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

    out = Out()
    repl = Repl(tmp_path / "home", out, is_tty=False)  # type: ignore[arg-type]
    hanging = _Hanging()
    repl.runner = hanging  # type: ignore[assignment]

    async def scenario() -> None:
        asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), signal.SIGINT)
        await asyncio.wait_for(repl.run_turn("wait forever"), timeout=TIMEOUT)

    asyncio.run(scenario())
    assert "Interrupted." in out.text
    assert getattr(hanging.signal, "aborted", False) is True, "the turn's abort signal should be set"


@pytest.fixture
def loopback_model(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The kit's scripted model served on 127.0.0.1 by its standalone command: (base URL, calls file)."""
    import json
    import subprocess

    script = tmp_path / "script.json"
    script.write_text(
        json.dumps({"model": "claude-test", "replies": [{"text": "Hello from the scripted model."}]}),
        encoding="utf-8",
    )
    calls = tmp_path / "calls.jsonl"
    server = subprocess.Popen(
        [sys.executable, "-m", "synapse_spec.model_server", "--script", str(script), "--calls", str(calls)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    base_url = server.stdout.readline().strip()
    try:
        yield base_url, calls
    finally:
        server.terminate()
        server.wait(timeout=TIMEOUT)


def _anthropic_repl(home: Path, base_url: str, model: str) -> pexpect.spawn[str]:
    """The REPL with its real Anthropic client pointed at ``base_url``."""
    env = _environment(home) | {"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": "test-key"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "synapse_ref", "--home", str(home), "--provider", "anthropic", "--model", model],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
    )


def test_a_real_provider_client_talks_to_the_model_over_a_socket(
    home: Path, loopback_model: tuple[str, Path]
) -> None:
    import json

    base_url, calls = loopback_model
    child = _anthropic_repl(home, base_url, "claude-test")
    try:
        child.expect_exact("Model: claude-test")
        child.expect_exact(SHOWN_PROMPT)
        _say(child, "hello over http")
        child.expect_exact("Hello from the scripted model.")
        child.expect_exact(SHOWN_PROMPT)
        _say(child, "/exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    sent = [json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines()]
    assert [m["content"][0]["text"] for m in sent[0]["messages"]] == ["hello over http"]
    assert sent[0]["model"] == "claude-test"


def test_a_provider_without_its_key_is_a_clear_error(home: Path) -> None:
    import subprocess

    env = {k: v for k, v in _environment(home).items() if k != "ANTHROPIC_API_KEY"}
    result = subprocess.run(
        [sys.executable, "-m", "synapse_ref", "--home", str(home), "--provider", "anthropic"],
        input="/exit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    assert result.returncode == 1
    assert "ANTHROPIC_API_KEY" in result.stderr and "Traceback" not in result.stderr


def test_a_streamed_reply_is_shown_while_the_model_is_still_answering(home: Path) -> None:
    """The model server sends the first words, then waits until the terminal shows them before it sends the
    rest: a REPL that printed only the finished reply would leave the model waiting and this test failing."""
    import http.server
    import json
    import threading

    first_words_seen = threading.Event()

    def sse(event: str, **data: object) -> bytes:
        return f"event: {event}\ndata: {json.dumps({'type': event, **data})}\n\n".encode()

    class GatedModel(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            message: dict[str, object] = {"id": "msg_1", "type": "message", "role": "assistant"}
            message |= {"content": [], "model": "m", "usage": {"input_tokens": 3, "output_tokens": 0}}
            self.wfile.write(sse("message_start", message=message))
            self.wfile.write(sse("content_block_start", index=0, content_block={"type": "text", "text": ""}))
            delta = {"type": "text_delta", "text": "First words"}
            self.wfile.write(sse("content_block_delta", index=0, delta=delta))
            self.wfile.flush()
            first_words_seen.wait(2 * TIMEOUT)  # longer than the terminal waits for the first words
            delta = {"type": "text_delta", "text": " and the rest."}
            self.wfile.write(sse("content_block_delta", index=0, delta=delta))
            self.wfile.write(sse("content_block_stop", index=0))
            end = {"stop_reason": "end_turn"}
            self.wfile.write(sse("message_delta", delta=end, usage={"output_tokens": 5}))
            self.wfile.write(sse("message_stop"))
            self.wfile.flush()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), GatedModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    child = _anthropic_repl(home, f"http://127.0.0.1:{server.server_address[1]}", "m")
    try:
        child.expect_exact(SHOWN_PROMPT)
        _say(child, "stream please")
        child.expect_exact("First words")
        assert "and the rest" not in f"{child.before}{child.after}"
        first_words_seen.set()
        child.expect_exact(" and the rest.")
        child.expect_exact(SHOWN_PROMPT)
        _say(child, "/exit")
        child.expect(pexpect.EOF)
    finally:
        first_words_seen.set()
        child.close(force=True)
        server.shutdown()
