"""Deterministic inputs of the benchmark cases: transcripts, histories and offload contents.

Everything is generated from a fixed seed, so two runs (and the original, timed by
``python -m bench.original`` on inputs written from these generators) see the same bytes.  Big files are
written once into the data directory (``reports/bench-data`` by default, git-ignored) and reused while the
generator's version and the requested size match.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

GENERATOR_VERSION = 1
_MB = 1_000_000

_WORDS = (
    "the",
    "file",
    "handler",
    "returns",
    "request",
    "status",
    "value",
    "config",
    "module",
    "test",
    "error",
    "path",
    "update",
    "build",
    "cache",
    "session",
    "context",
    "token",
    "message",
    "result",
    "stream",
    "parse",
    "line",
    "index",
    "buffer",
    "retry",
    "limit",
    "offset",
)
_CJK = "读取文件并检查返回值确认测试通过后提交修改"
_TOOLS = ("Read", "Bash", "Edit", "Grep", "Glob", "Write", "WebFetch", "TodoWrite")


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    if rng.random() < 0.15:
        text += " " + "".join(rng.choice(_CJK) for _ in range(rng.randint(4, 20)))
    if rng.random() < 0.05:
        text += " ✅ 🎉"
    return text.capitalize() + "."


def _code(rng: random.Random, lines: int, start: int) -> str:
    out = []
    for n in range(start, start + lines):
        name = rng.choice(_WORDS)
        out.append(f"{n:>5}\tdef {name}_{n}(request):  # {rng.choice(_WORDS)}")
        out.append(f"        return respond({name}, 200)")
    return "\n".join(out)


def transcript_lines(seed: int = 7) -> Iterator[str]:
    """Endless Anthropic-style transcript lines (the format both readers understand), ~750 bytes each.

    A round is a user prompt, an assistant turn with text and a ``tool_use`` and a user turn carrying the
    ``tool_result``; every fifth assistant turn is text only.
    """
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        call_id = f"toolu_{number:08d}"
        tool = rng.choice(_TOOLS)
        yield json.dumps(
            {
                "id": f"msg-{number}-u",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "role": "user",
                "content": _sentence(rng, rng.randint(5, 25)),
            },
            ensure_ascii=False,
        )
        blocks: list[dict[str, Any]] = [{"type": "text", "text": _sentence(rng, rng.randint(8, 40))}]
        if number % 5:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": call_id,
                    "name": tool,
                    "input": {"file_path": f"src/{rng.choice(_WORDS)}/{number}.py", "limit": 200},
                }
            )
        yield json.dumps(
            {
                "id": f"msg-{number}-a",
                "timestamp": "2026-01-01T00:00:01.000Z",
                "role": "assistant",
                "content": blocks,
            },
            ensure_ascii=False,
        )
        if number % 5:
            yield json.dumps(
                {
                    "id": f"msg-{number}-r",
                    "timestamp": "2026-01-01T00:00:02.000Z",
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": call_id,
                            "content": _code(rng, rng.randint(2, 24), number),
                        }
                    ],
                },
                ensure_ascii=False,
            )


def session_messages(count: int, seed: int = 11) -> list[dict[str, Any]]:
    """``count`` messages in the agent's own session format: user, assistant with a tool call, tool result."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            messages.append(
                {"role": "user", "content": [{"type": "text", "text": _sentence(rng, rng.randint(5, 30))}]}
            )
        elif kind == 1:
            messages.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": _sentence(rng, rng.randint(5, 30))}],
                    "toolCalls": [
                        {
                            "id": f"c{i}",
                            "name": rng.choice(_TOOLS),
                            "arguments": json.dumps({"path": f"src/{i}.py"}),
                        }
                    ],
                }
            )
        else:
            messages.append(
                {
                    "role": "tool",
                    "content": [{"type": "text", "text": _code(rng, rng.randint(2, 12), i)}],
                    "toolCallId": f"c{i - 1}",
                }
            )
    return messages


def offload_contents(count: int, seed: int = 13) -> list[str]:
    """Tool outputs as the context manager offloads them: half JSON documents, half text, ~1 KB each."""
    rng = random.Random(seed)
    contents: list[str] = []
    for i in range(count):
        if i % 2:
            contents.append(
                json.dumps({"files": [f"src/{rng.choice(_WORDS)}/{i}_{j}.py" for j in range(30)]})
            )
        else:
            contents.append(_code(rng, 12, i))
    return contents


def _write_lines(path: Path, lines: Iterator[str], *, max_bytes: int | None, max_lines: int | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(".partial")
    written = count = 0
    with temp.open("wb") as handle:
        for line in lines:
            data = (line + "\n").encode("utf-8")
            if max_bytes is not None and written + len(data) > max_bytes:
                break
            handle.write(data)
            written += len(data)
            count += 1
            if max_lines is not None and count >= max_lines:
                break
    temp.replace(path)


def transcript_file(data_dir: Path, *, megabytes: float | None = None, lines: int | None = None) -> Path:
    """A transcript of at most ``megabytes`` MB (10**6 bytes) or of exactly ``lines`` lines, cached."""
    tag = f"{megabytes}mb" if megabytes is not None else f"{lines}lines"
    path = data_dir / f"transcript-v{GENERATOR_VERSION}-{tag}.jsonl"
    if not path.exists():
        max_bytes = int(megabytes * _MB) if megabytes is not None else None
        _write_lines(path, transcript_lines(), max_bytes=max_bytes, max_lines=lines)
    return path


def history_file(data_dir: Path, lines: int) -> Path:
    """A session history (``history.jsonl`` lines) of ``lines`` messages, cached."""
    path = data_dir / f"history-v{GENERATOR_VERSION}-{lines}.jsonl"
    if not path.exists():
        messages = session_messages(lines)
        _write_lines(
            path, (json.dumps(m, ensure_ascii=False) for m in messages), max_bytes=None, max_lines=None
        )
    return path
