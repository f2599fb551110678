"""The benchmark cases, written against the contract (``synapse_spec.contract.Implementation``).

A case builds its inputs once per process (``setup``, untimed); before every repetition ``iteration``
does the untimed per-run preparation (a fresh directory, a fresh manager) and returns the operation that
is timed.  Because only the contract is used, the same cases time the reference implementation in this
process or another implementation behind the wire protocol.

``original_ms`` is the TypeScript original's median at the case's full size, typed in from an earlier
measurement; ``python -m bench.original`` measures it afresh on these very inputs, and the suite prefers
that report when given one (see ``bench/README.md``).  None where the original has no such operation.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import data

if TYPE_CHECKING:
    from synapse_spec import contract

Operation = Callable[[], object]

# The settings and fixed inputs of the cases; bench.original hands the same values to the original.
TAIL_CHARS = 50_000
"""Characters the tail read keeps."""
SCAN_RATIO = 0.5
MIN_CHARS = 50
OFFLOAD_THRESHOLD = 1
"""Crossed by every history: each check scans (and, after the first offload, saves nothing)."""
COUNT_ONLY_THRESHOLD = 10**15
"""Never crossed: counting the history is all a check does."""
SESSION_ID = "bench"
NEXT_MESSAGE: dict[str, Any] = {"role": "user", "content": [{"type": "text", "text": "one more message"}]}
"""What the next agent step adds to the history (``offload_if_needed_warm``)."""
FIRST_MESSAGE: dict[str, Any] = {"role": "user", "content": "hello"}
"""The history of the first token count in a fresh process."""


@dataclass
class Context:
    """What a case gets: the implementation, the cached inputs and a scratch directory of its own."""

    impl: contract.Implementation
    data_dir: Path
    work_dir: Path


class Runner:
    """One case at one size inside one process."""

    def iteration(self) -> Operation:
        raise NotImplementedError


@dataclass(frozen=True)
class Case:
    name: str
    title: str
    unit: str
    full: int
    quick: int
    original_ms: float | None
    setup: Callable[[Context, int], Runner]
    fresh_process: bool = False
    """Timed once per process, from before the implementation is loaded (start-up cost)."""
    target: float = 1.5
    """The ratio original / ours (wall) the case is to reach, where the original has it."""
    flat: bool = False
    """The time must also stay flat in N: at most ``FLAT_GROWTH`` from N/2 to N."""


FLAT_GROWTH = 1.25
"""The growth per doubling up to which a time counts as flat in N (1.0 is flat, 2.0 linear)."""


def _fresh_dir(ctx: Context, name: str) -> Path:
    path = ctx.work_dir / name
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


class _Fixed(Runner):
    def __init__(self, operation: Operation) -> None:
        self._operation = operation

    def iteration(self) -> Operation:
        return self._operation


class _Fresh(Runner):
    def __init__(self, prepare: Callable[[], Operation]) -> None:
        self._prepare = prepare

    def iteration(self) -> Operation:
        return self._prepare()


# -- reader ----------------------------------------------------------------------------------------------


def _tail_read(ctx: Context, megabytes: int) -> Runner:
    path = data.transcript_file(ctx.data_dir, megabytes=megabytes)
    reader = ctx.impl.conversation_reader()
    return _Fixed(lambda: reader.read_truncated(path, TAIL_CHARS))


def _read(ctx: Context, megabytes: int) -> Runner:
    path = data.transcript_file(ctx.data_dir, megabytes=megabytes)
    reader = ctx.impl.conversation_reader()
    return _Fixed(lambda: reader.read(path))


def _turns(ctx: Context, count: int) -> tuple[contract.ConversationReader, Any]:
    reader = ctx.impl.conversation_reader()
    return reader, reader.read(data.transcript_file(ctx.data_dir, lines=count))


def _compact(ctx: Context, count: int) -> Runner:
    reader, turns = _turns(ctx, count)
    return _Fixed(lambda: reader.compact(turns))


def _summarize(ctx: Context, count: int) -> Runner:
    reader, turns = _turns(ctx, count)
    return _Fixed(lambda: reader.summarize(turns))


# -- context ---------------------------------------------------------------------------------------------


def offloaded_history(work_dir: Path, count: int) -> list[dict[str, Any]]:
    """A history after an earlier offload: the older half's tool results are already references, so a
    check over the threshold scans them and saves nothing (the state every later agent step sees)."""
    messages = data.session_messages(count)
    for index in range(count // 2):
        if messages[index]["role"] == "tool":
            reference = f"Tool result is at: {work_dir}/offloaded/{index:08d}.txt"
            messages[index] = {**messages[index], "content": [{"type": "text", "text": reference}]}
    return messages


def _manager(ctx: Context, threshold: int) -> contract.ContextManager:
    storage = ctx.impl.offload_storage(_fresh_dir(ctx, "session"))
    return ctx.impl.context_manager(
        storage, offload_threshold=threshold, scan_ratio=SCAN_RATIO, min_chars=MIN_CHARS
    )


def _offload_if_needed(ctx: Context, count: int) -> Runner:
    history = offloaded_history(ctx.work_dir, count)

    def prepare() -> Operation:
        manager = _manager(ctx, threshold=OFFLOAD_THRESHOLD)  # a new manager: nothing counted yet
        return lambda: manager.offload_if_needed(history)

    return _Fresh(prepare)


def _offload_if_needed_warm(ctx: Context, count: int) -> Runner:
    history = offloaded_history(ctx.work_dir, count)
    manager = _manager(ctx, threshold=OFFLOAD_THRESHOLD)
    manager.offload_if_needed(history)
    history.append(NEXT_MESSAGE)
    return _Fixed(lambda: manager.offload_if_needed(history))


def _token_count(ctx: Context, count: int) -> Runner:
    history = data.session_messages(count)

    def prepare() -> Operation:
        manager = _manager(ctx, threshold=COUNT_ONLY_THRESHOLD)
        return lambda: manager.offload_if_needed(history)

    return _Fresh(prepare)


def _first_count(ctx: Context, count: int) -> Runner:
    del count
    manager = _manager(ctx, threshold=COUNT_ONLY_THRESHOLD)
    return _Fixed(lambda: manager.offload_if_needed([FIRST_MESSAGE]))


def _offload_saves(ctx: Context, count: int) -> Runner:
    contents = data.offload_contents(count)

    def prepare() -> Operation:
        storage = ctx.impl.offload_storage(_fresh_dir(ctx, "session"))
        return lambda: [storage.save(content) for content in contents]

    return _Fresh(prepare)


def interrupted_history(count: int) -> list[dict[str, Any]]:
    """``count`` messages and an interrupted round at the end: a tool call whose result never came."""
    history = data.session_messages(count)
    history.append(
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "one more"}],
            "toolCalls": [{"id": "dangling", "name": "Bash", "arguments": "{}"}],
        }
    )
    return history


def _sanitizer(ctx: Context, count: int) -> Runner:
    history = interrupted_history(count)
    return _Fixed(lambda: ctx.impl.sanitize_tool_protocol_history(history))


# -- session ---------------------------------------------------------------------------------------------


def _new_session(ctx: Context) -> contract.Session:
    return ctx.impl.create_session(_fresh_dir(ctx, "sessions"), session_id=SESSION_ID)


def _append_one(ctx: Context, count: int) -> Runner:
    messages = data.session_messages(count)

    def prepare() -> Operation:
        session = _new_session(ctx)

        def append_each() -> None:
            for message in messages:
                session.append_message(message)

        return append_each

    return _Fresh(prepare)


def _append_batch(ctx: Context, count: int) -> Runner:
    messages = data.session_messages(count)

    def prepare() -> Operation:
        session = _new_session(ctx)
        return lambda: session.append_message(messages)

    return _Fresh(prepare)


def _load_history(ctx: Context, count: int) -> Runner:
    session = _new_session(ctx)
    shutil.copyfile(data.history_file(ctx.data_dir, count), session.history_path)
    return _Fixed(session.load_history)


def _rewrite_history(ctx: Context, count: int) -> Runner:
    session = _new_session(ctx)
    messages = data.session_messages(count)
    return _Fixed(lambda: session.rewrite_history(messages))


# -- workflow hook ---------------------------------------------------------------------------------------

_SESSION = "bench-session"


def _clock() -> datetime:
    return datetime(2026, 1, 1, tzinfo=timezone.utc)


def _workflow(ctx: Context, lines: int) -> tuple[contract.StagedWorkflow, Path, Callable[[], None]]:
    """A workflow session with a pending stage, a transcript over the 5 MB threshold and a timeline of
    ``lines`` events (one ``session:compact`` near the start, then stage completions)."""
    workflow = ctx.impl.staged_workflow(_fresh_dir(ctx, "workflow"), clock=_clock)
    transcript = data.transcript_file(ctx.data_dir, megabytes=6)
    registry = workflow.timeline_events
    body: list[str] = []
    for number in range(lines):
        kind = "session:compact" if number == 1 else ("stage:complete" if number % 2 else "agent:complete")
        event = {
            "ts": f"2026-01-01T00:{number // 60 % 60:02d}:{number % 60:02d}.000Z",
            "type": kind,
            "category": registry[kind]["category"],
            "label": registry[kind]["label"],
            "stage": "DEV",
            "agent": "developer",
            "result": "pass",
        }
        body.append(json.dumps(event, ensure_ascii=False))
    text = "\n".join(body) + "\n"

    def reset() -> None:
        workflow.state.init(_SESSION, "standard")
        path = workflow.timeline.path(_SESSION)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    return workflow, transcript, reset


def _on_stop(ctx: Context, lines: int) -> Runner:
    workflow, transcript, reset = _workflow(ctx, lines)
    event = {
        "session_id": _SESSION,
        "agent_type": "ot:planner",
        "last_assistant_message": 'Done.\n<!-- VERDICT: {"result": "PASS"} -->',
        "transcript_path": str(transcript),
    }

    def prepare() -> Operation:
        reset()
        return lambda: workflow.on_stop(event)

    return _Fresh(prepare)


def _should_suggest(ctx: Context, lines: int) -> Runner:
    workflow, transcript, reset = _workflow(ctx, lines)
    reset()
    return _Fixed(lambda: workflow.should_suggest_compact(transcript_path=transcript, session_id=_SESSION))


CASES: tuple[Case, ...] = (
    Case("tail_read", "tail read, 50,000 chars", "MB file", 500, 4, 220.0, _tail_read, flat=True),
    Case("read", "ConversationReader.read", "MB file", 100, 2, 311.0, _read),
    Case("compact", "ConversationReader.compact", "turns", 100_000, 2_000, 144.0, _compact),
    Case("summarize", "ConversationReader.summarize", "turns", 100_000, 2_000, 103.0, _summarize),
    Case(
        "offload_if_needed",
        "offload_if_needed, new manager",
        "messages",
        50_000,
        1_000,
        10_600.0,
        _offload_if_needed,
        target=10.0,
    ),
    Case(
        "offload_if_needed_warm",
        "offload_if_needed, next step (+1 msg)",
        "messages",
        50_000,
        1_000,
        10_600.0,
        _offload_if_needed_warm,
        target=10.0,
    ),
    Case("token_count", "token count only", "messages", 50_000, 1_000, 5_800.0, _token_count, target=10.0),
    Case(
        "first_count",
        "first token count, fresh process",
        "process",
        1,
        1,
        128.0,
        _first_count,
        fresh_process=True,
    ),
    Case("offload_saves", "offload storage saves", "saves", 6_250, 200, 91.0, _offload_saves),
    Case("sanitizer", "tool-protocol sanitizer", "messages", 50_000, 1_000, 7.8, _sanitizer),
    Case("append_one", "session append, one per call", "messages", 10_000, 200, 1_200.0, _append_one),
    Case("append_batch", "session append, one batch", "messages", 10_000, 1_000, 29.0, _append_batch),
    Case("load_history", "session load history", "lines", 100_000, 2_000, 139.0, _load_history),
    Case("rewrite_history", "session rewrite history", "messages", 20_000, 1_000, 35.0, _rewrite_history),
    Case("on_stop", "workflow on-stop, large timeline", "timeline lines", 2_000, 200, None, _on_stop),
    Case(
        "should_suggest_compact",
        "should_suggest_compact",
        "timeline lines",
        2_000,
        200,
        None,
        _should_suggest,
    ),
)

BY_NAME = {case.name: case for case in CASES}
