"""The history's batch encoder and chunked loader give what the one-line-at-a-time forms give."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synapse_ref.session import persistence
from synapse_ref.session.persistence import dumps, parse_jsonl, read_jsonl, to_jsonl

SEPARATOR = persistence._SEPARATOR_VALUE

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from([SEPARATOR, "\ud800", "\x00", "\n", "é😀"]),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=6) | st.integers(0, 9), children, max_size=4),
    ),
    max_leaves=16,
)
messages = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "tool"])}, optional={"content": values}) | values,
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_batch_encoding_is_the_per_message_encoding(batch: list[Any]) -> None:
    # The separator string inside a message, values orjson refuses, keys that are not strings: all fall
    # back to the per-message encoding, so the bytes never depend on the path taken.
    assert _outcome(lambda: to_jsonl(batch)) == _outcome(
        lambda: b"".join(dumps(message, newline=True) for message in batch)
    )


def _outcome(encode: Callable[[], bytes | memoryview]) -> bytes | type[BaseException]:
    try:
        return bytes(encode())
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold: the same error either way
        return type(exc)


def test_a_message_holding_the_separator_keeps_its_lines() -> None:
    batch = [{"role": "user", "content": ["a", SEPARATOR, "b"]}, {"role": "tool", "content": SEPARATOR}]
    data = bytes(to_jsonl(batch))
    assert data.count(b"\n") == 2
    assert parse_jsonl(data, "test") == batch


lines = st.lists(
    st.sampled_from(
        [
            b'{"role":"user","content":"' + b"x" * 40 + b'"}',
            b'{"role":"tool","content":"\xc3\xa9\xf0\x9f\x98\x80"}',
            b"",
            b"   ",
            b"not json",
            b"[1,2]",
            b'{"role":1}',
            b'{"role":"assistant","toolCalls":{}}',
            b'{"role":"user","content":"' + b"y" * 300 + b'"}',
        ]
    ),
    max_size=30,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines, st.booleans(), st.integers(min_value=1, max_value=64))
def test_chunked_loading_is_loading_the_whole_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    body: list[bytes],
    final_newline: bool,
    chunk: int,
) -> None:
    data = b"\n".join(body) + (b"\n" if final_newline and body else b"")
    path = tmp_path / "history.jsonl"
    path.write_bytes(data)
    caplog.set_level(logging.WARNING, logger="synapse.session.persistence")
    caplog.clear()
    expected = parse_jsonl(data, path)
    expected_warnings = [r.getMessage() for r in caplog.records]
    caplog.clear()
    monkeypatch.setattr(persistence, "READ_CHUNK", chunk)  # lines cut at every place
    assert read_jsonl(path) == expected
    assert [r.getMessage() for r in caplog.records] == expected_warnings  # same line numbers


def test_loading_restores_the_garbage_collector_even_on_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    path = tmp_path / "history.jsonl"
    path.write_bytes(b'{"role":"user"}\n')

    def broken(*_: object) -> list[Any]:
        raise MemoryError

    monkeypatch.setattr(persistence, "_parse_lines", broken)
    assert gc.isenabled()
    with pytest.raises(MemoryError):
        read_jsonl(path)
    assert gc.isenabled()
