"""The reader's bulk decoding gives exactly what decoding each line with ``json`` gives.

Transcripts mix well-formed lines with every kind of line the fast path refuses (blank, whitespace only,
two values on a line, damage, NaN, lone surrogates, invalid UTF-8, huge integers, non-objects, deep
nesting), in blocks small enough that a bad line falls in a block of good ones.  The reference run
refuses every line in msgspec, so each goes through the standard library: turns, their order, ids and
warnings must be the same.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_ref.skills import conversation_reader as reader_module
from synapse_ref.skills.conversation_reader import ConversationReader
from synapse_spec import fuzz

_ODD_LINES = [
    b"",
    b"   ",
    b"\r",
    b"{",
    b"[1, 2]",
    b'"text"',
    b"42",
    b'{"role": "user", "content": "a"} {"role": "user", "content": "b"}',
    b'{"role": "user", "content": NaN}',
    b'{"role": "user", "content": "\\ud800"}',
    b'{"role": "user", "content": "caf\xe9"}',
    b'{"role": "user", "id": 123456789012345678901234567890, "content": "big"}',
    b'{"role": "user", "content": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"role": "user", "role": "assistant", "content": "last wins"}',
    b'{"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "out"}]}',
    b'{"role": "tool", "content": "no id"}',
    b'{"role": "assistant", "content": "", "toolCalls": [{"id": "c1", "name": "Bash", "arguments": "{}"}]}',
    b'{"role": "system", "content": "dropped"}',
]

_block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "image", 3])},
    optional={
        "text": fuzz.json_values(3),
        "id": st.sampled_from(["t1", "", 7, None]),
        "name": st.sampled_from(["Read", "", None]),
        "input": fuzz.json_values(3),
        "tool_use_id": st.sampled_from(["t1", "", 0]),
        "content": fuzz.json_values(3),
    },
)
_line = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system", None])},
    optional={
        "id": st.sampled_from(["m1", "", 5, None]),
        "timestamp": st.just("2026-01-01T00:00:00.000Z"),
        "content": st.one_of(st.text(max_size=20), st.lists(_block, max_size=3), fuzz.json_values(3)),
        "toolCalls": st.one_of(st.lists(st.fixed_dictionaries({"name": st.just("Bash")}), max_size=2)),
        "toolCallId": st.sampled_from(["c1", "", None]),
    },
).map(lambda value: json.dumps(value, ensure_ascii=False).encode("utf-8"))
_lines = st.lists(st.one_of(_line, _line, st.sampled_from(_ODD_LINES)), max_size=25)


class _RefuseAll:
    """Stands in for the msgspec decoder so that every line goes through ``json``."""

    def decode(self, data: Any) -> Any:
        raise msgspec.DecodeError("refused")

    def decode_lines(self, data: Any) -> Any:
        raise msgspec.DecodeError("refused")


def _read(path: Path, caplog: pytest.LogCaptureFixture) -> tuple[list[Any], list[str]]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="synapse.skills.conversation_reader"):
        turns = ConversationReader().read(path)
    return list(turns), [record.getMessage() for record in caplog.records]


@fuzz.profile(max_examples=150)
@given(lines=_lines, final_newline=st.booleans())
def test_bulk_decoding_reads_what_json_reads(
    lines: list[bytes],
    final_newline: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if final_newline else b""))
    with monkeypatch.context() as patched:
        patched.setattr(reader_module, "_READ_BLOCK", 256)  # several blocks: bad lines among good ones
        got = _read(path, caplog)
        patched.setattr(reader_module, "_LINE_DECODER", _RefuseAll())
        expected = _read(path, caplog)
    assert got == expected


def test_a_clean_transcript_is_decoded_in_bulk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Well-formed lines never take the line-by-line path (which would be correct, only slower)."""
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(b'{"id": "m1", "role": "user", "content": "hi"}\r\n{"role": "assistant", "content": []}')

    def refuse(self: ConversationReader, raw: bytes, number: int) -> None:
        raise AssertionError(f"line {number} was decoded on its own")

    monkeypatch.setattr(ConversationReader, "_decode_line", refuse)
    turns = ConversationReader().read(path)
    assert [(turn.id, turn.role, turn.content) for turn in turns] == [
        ("m1", "user", "hi"),
        ("turn-2", "assistant", ""),
    ]


def test_a_value_over_two_lines_is_not_read_as_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Bulk decoding reads a stream of values: an object cut over two lines next to a line holding two
    objects gives as many values as lines, yet no line is a JSON object on its own."""
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(
        b'{"role": "user", "content": "a"\n'
        b', "x": 1}\n'
        b'{"role": "user", "content": "b"} {"role": "user", "content": "c"}\n'
    )
    turns, warnings = _read(path, caplog)
    assert turns == []
    assert [message.split(":")[0] for message in warnings] == [
        f"Failed to parse conversation line {number}" for number in (1, 2, 3)
    ]
