"""The sanitizer's one-pass check of the already valid prefix decides exactly as the round-by-round loop.

Histories are valid rounds (one or several calls, results in any order, ids that may repeat an earlier
round's) interleaved with the hostile entries of the spec's fuzzer, so the prefix ends at every kind of
problem; the result must equal the loop's on the whole history.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_ref.context import sanitizer
from synapse_spec import fuzz

_ARGUMENTS = ['{"path": "a.py"}', "{}", '{"n": 1e308}', '{"n": 1e999}', '{"x": NaN}', "[]", "{" * 200 + "}"]


@st.composite
def _round(draw: st.DrawFn) -> list[Any]:
    ids = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=0, max_size=3))
    calls = [{"id": i, "name": "Bash", "arguments": draw(st.sampled_from(_ARGUMENTS))} for i in ids]
    answers = draw(st.permutations(ids)) if ids else []
    empty_list_of_calls = draw(st.booleans())
    assistant: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}
    if calls or empty_list_of_calls:
        assistant["toolCalls"] = calls
    results = [{"role": "tool", "content": "out", "toolCallId": i} for i in answers]
    return [{"role": "user", "content": "go"}, assistant, *results]


_histories = st.lists(st.one_of(_round(), fuzz.hostile_histories()), max_size=6).map(
    lambda parts: [entry for part in parts for entry in part]
)


def _round_by_round(messages: list[Any], monkeypatch: pytest.MonkeyPatch) -> sanitizer.SanitizeResult:
    with monkeypatch.context() as patched:
        patched.setattr(sanitizer, "_valid_prefix_end", lambda entries, used_ids: 0)
        return sanitizer.sanitize_tool_protocol_history(messages)


@fuzz.profile(max_examples=300)
@given(messages=_histories)
def test_the_valid_prefix_changes_nothing_the_loop_would_decide(
    messages: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _round_by_round(messages, monkeypatch)
    got = sanitizer.sanitize_tool_protocol_history(messages)
    assert [id(m) for m in got.sanitized] == [id(m) for m in expected.sanitized]
    assert got.changed is expected.changed


def test_a_valid_history_is_kept_whole_in_a_new_list() -> None:
    history: list[Any] = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "toolCalls": [{"id": "a", "name": "Bash", "arguments": "{}"}]},
        {"role": "tool", "content": "out", "toolCallId": "a"},
    ]
    result = sanitizer.sanitize_tool_protocol_history(history)
    assert result.sanitized == history and result.sanitized is not history
    assert result.changed is False
