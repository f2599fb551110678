"""The history's batch encoder and chunked loader give what the one-line-at-a-time forms give."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_ref.session import persistence
from synapse_ref.session.persistence import dumps, parse_jsonl, to_jsonl

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


def _outcome(encode: Callable[[], bytes]) -> bytes | type[BaseException]:
    try:
        return encode()
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold: the same error either way
        return type(exc)


def test_a_message_holding_the_separator_keeps_its_lines() -> None:
    batch = [{"role": "user", "content": ["a", SEPARATOR, "b"]}, {"role": "tool", "content": SEPARATOR}]
    data = to_jsonl(batch)
    assert data.count(b"\n") == 2
    assert parse_jsonl(data, "test") == batch
