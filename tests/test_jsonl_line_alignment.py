"""Bulk decoding of JSONL must keep each value on its own line.

Parsing a block of lines in one call is only right when every value the call returns is exactly one
line.  Two kinds of damage move the boundaries in opposite directions, so together they keep the count
of values equal to the count of lines: a line holding ``{...},{...}`` (two values, which an array made of
the lines would accept) and two halves of an object on consecutive lines (one value, once joined).
Decoded line by line, all three lines are damaged and give nothing but warnings.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from synapse_ref.session.persistence import parse_jsonl, read_jsonl
from synapse_ref.skills.conversation_reader import ConversationReader

_COMPENSATING = (
    b'{"role": "user", "content": "a"},{"role": "user", "content": "b"}\n'
    b'{"role": "user", "content": "c"\n'
    b'"id": "x"}\n'
    b'{"role": "user", "content": "d"}\n'
)


def test_the_reader_does_not_shift_values_across_lines(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(_COMPENSATING)
    with caplog.at_level(logging.WARNING, logger="synapse.skills.conversation_reader"):
        turns = ConversationReader().read(path)
    assert [(turn.id, turn.content) for turn in turns] == [("turn-4", "d")]
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        f"Failed to parse conversation line {number}" for number in (1, 2, 3)
    ]


def test_the_history_loader_does_not_shift_values_across_lines(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(_COMPENSATING)
    with caplog.at_level(logging.WARNING, logger="synapse.session.persistence"):
        messages = read_jsonl(path)
        assert parse_jsonl(_COMPENSATING, path) == messages
    assert messages == [{"role": "user", "content": "d"}]
    assert [r.getMessage().split(" in ")[0] for r in caplog.records] == [
        f"Skipped corrupted JSONL line {number}" for number in (1, 2, 3, 1, 2, 3)
    ]
