"""Hostile JSON for the session layer's loaders and the ConversationReader: never a traceback.

Profiles: ``ci`` (default, small) and ``long`` (10,000 examples): ``HYPOTHESIS_PROFILE=long pytest
tests/test_session_properties.py``.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synapse_ref.session.pricing import PRICE_KEYS, load_pricing
from synapse_ref.session.session import Session
from synapse_ref.session.usage import accumulate_usage, create_empty_usage, format_cost_output
from synapse_ref.skills.conversation_reader import ConversationReader

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "long", max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

MODEL = "claude-sonnet-4-20250514"
SESSION_ID = "session-m6x3k2a1-abc123"

# -- hostile JSON ----------------------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["user", "assistant", "tool", "text", "role", "toolCalls", "\ud800", "\x00"]),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.sampled_from(["role", "content", "toolCalls", "toolCallId", "type", "text", "id"])
            | st.text(max_size=8),
            children,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


def _deep(depth: int, opener: str) -> str:
    closer = "]" if opener == "[" else "}"
    inner = '{"a":' if opener == "{" else "["
    return (inner * depth) + ("1" if opener == "{" else "") + (closer * depth)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)  # NaN/Infinity written as JavaScript never would


json_texts = st.one_of(
    values.map(_dumps),
    st.text(max_size=60),
    st.integers(min_value=1, max_value=3000).map(lambda n: "1" + "0" * n),  # past the int-string limit
    st.tuples(st.integers(min_value=900, max_value=3000), st.sampled_from(["[", "{"])).map(
        lambda t: _deep(*t)
    ),
    values.map(_dumps).map(lambda s: s[: len(s) // 2]),  # cut off, as by a killed writer
)
line_bytes = st.one_of(
    json_texts.map(lambda s: s.encode("utf-8", errors="surrogatepass")), st.binary(max_size=40)
)
messages = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool"]), "content": st.text(max_size=30)}
)


@contextmanager
def _warnings_caught() -> Iterator[list[logging.LogRecord]]:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.WARNING)
    logger = logging.getLogger("synapse")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)


def _is_message(value: Any) -> bool:
    calls = value.get("toolCalls") if isinstance(value, dict) else None
    return (
        isinstance(value, dict)
        and isinstance(value.get("role"), str)
        and (calls is None or isinstance(calls, list))
    )


# -- the history loader ----------------------------------------------------------------------------------


@given(
    st.lists(
        st.one_of(messages.map(lambda m: ("message", m)), line_bytes.map(lambda b: ("raw", b))), max_size=12
    )
)
def test_history_loader_returns_only_messages_and_keeps_every_valid_one(lines: list[tuple[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.create(Path(tmp), session_id=SESSION_ID, pricing={})
        data = b"\n".join(
            json.dumps(item, ensure_ascii=False).encode() if kind == "message" else item.replace(b"\n", b" ")
            for kind, item in lines
        )
        session.history_path.write_bytes(data)
        with _warnings_caught():
            history = session.load_history()
        assert all(_is_message(m) for m in history)
        written = [item for kind, item in lines if kind == "message"]
        assert [m for m in history if m in written] == written  # none lost, order kept
        found = Session.find(SESSION_ID, Path(tmp))
        assert found is not None and found.message_count == len(history)


@given(st.lists(messages, min_size=1, max_size=5), line_bytes)
def test_append_after_any_unfinished_line_keeps_the_message(
    before: list[dict[str, Any]], torn: bytes
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.create(Path(tmp), pricing={})
        session.append_message(before)
        with session.history_path.open("ab") as handle:
            handle.write(torn.replace(b"\n", b" "))
        new = {"role": "user", "content": "after the crash"}
        session.append_message(new)
        with _warnings_caught():
            history = session.load_history()
        assert history[: len(before)] == before and history[-1] == new
        listed = Session.list(Path(tmp))
        assert listed[0]["messageCount"] == len(history)


# -- the index loader ------------------------------------------------------------------------------------

entries = st.fixed_dictionaries(
    {
        "id": st.one_of(st.just(SESSION_ID), values),
        "createdAt": st.one_of(st.just("2026-01-02T03:04:05.678Z"), values),
        "updatedAt": st.one_of(st.just("2026-01-02T03:05:00.000Z"), values),
        "messageCount": st.one_of(st.integers(min_value=0, max_value=10**6), values),
    },
    optional={"title": values, "cwd": values, "usage": values, "historySize": values, "historyInode": values},
)
indexes = st.one_of(
    st.fixed_dictionaries(
        {"version": st.just("1.0.0"), "sessions": st.lists(entries, max_size=3), "updatedAt": st.just("x")}
    ).map(_dumps),
    json_texts,
)


@given(indexes)
def test_index_loader_never_raises(index: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sessions.json").write_bytes(index.encode("utf-8", errors="surrogatepass"))
        with _warnings_caught():
            listed = Session.list(Path(tmp))
            found = Session.find(SESSION_ID, Path(tmp))
            latest = Session.continue_(Path(tmp))
            for entry in listed:
                assert math.isfinite(float(entry["messageCount"]))
                if entry.get("usage") is not None:
                    format_cost_output(entry["usage"])
            for session in (found, latest):
                if session is not None:
                    format_cost_output(session.get_usage())
            created = Session.create(Path(tmp), pricing={})
            assert next(e["id"] for e in Session.list(Path(tmp))) == created.id


# -- the pricing loader and /cost ------------------------------------------------------------------------

prices = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), values)
pricing_files = st.one_of(
    st.dictionaries(
        st.one_of(st.just(MODEL), st.text(max_size=5)),
        st.one_of(st.fixed_dictionaries({key: prices for key in PRICE_KEYS}), values),
        max_size=3,
    ).map(_dumps),
    json_texts,
)
rounds = st.fixed_dictionaries(
    {key: st.integers(min_value=0, max_value=10**12) for key in ("inputOther", "output", "inputCacheRead")}
)


@given(pricing_files, rounds)
def test_pricing_loader_and_cost_line_never_raise(text: str, round_usage: dict[str, int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pricing.json"
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        with _warnings_caught():
            pricing = load_pricing(path)
            if pricing is not None:
                assert all(math.isfinite(p) for prices_ in pricing.values() for p in prices_.values())
            usage = accumulate_usage(create_empty_usage(MODEL), round_usage, pricing)
            line = format_cost_output(usage)
    assert line.startswith("Token: ") and "Cost: " in line
    assert usage["totalCost"] is None or math.isfinite(usage["totalCost"])


@given(
    st.dictionaries(
        st.sampled_from(
            ["totalInputOther", "totalOutput", "totalCacheRead", "totalCacheCreation", "totalCost", "rounds"]
        ),
        values,
    )
)
def test_cost_line_of_any_usage_record_never_raises(usage: dict[str, Any]) -> None:
    with _warnings_caught():
        line = format_cost_output(usage)
    assert line.startswith("Token: ")


# -- the reader ------------------------------------------------------------------------------------------


@given(st.lists(line_bytes, max_size=8), st.integers(min_value=-5, max_value=400))
def test_reader_never_raises(lines: list[bytes], max_chars: int) -> None:
    reader = ConversationReader()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.jsonl"
        path.write_bytes(b"\n".join(lines))
        with _warnings_caught():
            turns = reader.read(path)
            reader.read_truncated(path, max_chars)
            reader.summarize(turns)
            reader.compact(turns, max(0, max_chars))
            reader.extract_tool_sequence(turns)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_reader_skips_lines_nested_too_deeply(depth: int, tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(
        '{"role":"user","content":' + "[" * depth + "]" * depth + '}\n{"role":"user","content":"ok"}\n'
    )
    reader = ConversationReader()
    with _warnings_caught() as warned:
        turns = reader.read(path)
        reader.summarize(turns)
    assert turns[-1].content == "ok"
    assert any(t.content == "ok" for t in turns) and (len(turns) == 2 or warned)
