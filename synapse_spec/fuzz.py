"""Property probes: generated hostile inputs and the invariants an implementation's answers must keep.

Scenarios that say "for any input" run a Hypothesis search through these.  The search size is a
Hypothesis profile chosen by ``HYPOTHESIS_PROFILE`` when the search starts: ``ci`` (the default, a
quick derandomised search, so a run is repeatable) or ``long`` (10,000 examples, for a soak run).
"""

from __future__ import annotations

import copy
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PROFILE_ENV = "HYPOTHESIS_PROFILE"
CI_EXAMPLES = 100
LONG_EXAMPLES = 10_000

settings.register_profile(
    "ci",
    max_examples=CI_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "long", max_examples=LONG_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


def profile_name() -> str:
    """The profile ``HYPOTHESIS_PROFILE`` names (read now), ``ci`` when unset."""
    return os.environ.get(PROFILE_ENV, "").strip() or "ci"


def profile(max_examples: int | None = None) -> settings:
    """The settings of the profile named by ``HYPOTHESIS_PROFILE`` (read now), optionally capped."""
    chosen = settings.get_profile(profile_name())
    if max_examples is not None and chosen.max_examples > max_examples:
        return settings(chosen, max_examples=max_examples)
    return chosen


# --------------------------------------------------------------------------------------------------------
# Generated inputs
# --------------------------------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any value a JSON parser may produce (objects, arrays, strings, numbers, booleans, null)."""
    return st.recursive(
        _SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


_HOSTILE_ARGUMENTS = [
    "{}",
    '{"command":"ls"}',
    '{"x": NaN}',
    '{"x": Infinity}',
    '{"x": -Infinity}',
    '{"x": 1e999}',
    "NaN",
    "[]",
    "null",
    '"ls"',
    "",
    "  ",
    '{"command":"echo "oops""}',
    '{"n": ' + "9" * 5000 + "}",
    '{"deep": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"a": 1} trailing',
]
_IDS: list[Any] = ["a", "b", "c", "", "None", "1", 1, None, 1.5, ["a"], {"id": "a"}]
_ROLES: list[Any] = ["user", "assistant", "tool", "system", "developer", "", None, 3, ["user"]]


def _maybe(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``{key: value}`` or ``{}`` (the field missing altogether)."""
    return st.one_of(st.just({}), values.map(lambda value: {key: value}))


@st.composite
def _tool_call(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values(4))
    call: dict[str, Any] = {}
    call.update(draw(_maybe("id", st.sampled_from(_IDS))))
    call.update(draw(_maybe("name", st.sampled_from(["Bash", "Read", "", None, 7]))))
    call.update(
        draw(_maybe("arguments", st.one_of(st.sampled_from(_HOSTILE_ARGUMENTS), json_values(4), st.text())))
    )
    return call


@st.composite
def _message(draw: st.DrawFn) -> Any:
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(json_values())
    role = (
        draw(st.sampled_from(_ROLES)) if shape == 1 else draw(st.sampled_from(["user", "assistant", "tool"]))
    )
    message: dict[str, Any] = {"role": role}
    message.update(
        draw(
            _maybe(
                "content",
                st.one_of(
                    st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=8)})),
                    json_values(4),
                ),
            )
        )
    )
    if role == "assistant" or draw(st.integers(0, 19)) == 0:
        calls = st.one_of(st.lists(_tool_call(), max_size=4), json_values(3))
        message.update(draw(_maybe("toolCalls", calls)))
    if role == "tool" or draw(st.integers(0, 19)) == 0:
        message.update(draw(_maybe("toolCallId", st.sampled_from(_IDS))))
    return message


def hostile_histories() -> st.SearchStrategy[list[Any]]:
    """Histories as a resumed session file may hold them: mostly message-shaped entries whose ids and
    arguments collide and break in every way found so far, mixed with arbitrary JSON values."""
    return st.lists(_message(), max_size=14)


def hostile_stdin(session_ids: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """What a hook may find on stdin: any text, any JSON value, and event-shaped objects with fields of
    any type, huge numbers and deep nesting; ``session_ids`` are sessions that exist."""
    event = st.fixed_dictionaries(
        {},
        optional={
            "session_id": st.one_of(
                st.sampled_from([*session_ids, "s-1", "", "../x", "\ud800"]), json_values(3)
            ),
            "agent_type": st.one_of(
                st.sampled_from(["developer", "ot:tester", "planner", ""]), json_values(3)
            ),
            "last_assistant_message": st.one_of(st.text(), json_values(3)),
            "transcript_path": st.one_of(st.sampled_from(["/dev/zero", "/", ""]), json_values(3)),
        },
    )
    return st.one_of(
        st.text(),
        json_values().map(lambda v: json.dumps(v, ensure_ascii=False)),
        event.map(lambda v: json.dumps(v, ensure_ascii=False)),
        st.sampled_from(["9" * 5000, "[" * 100_000, '{"a":' * 50_000, "-" + "1" * 4301, "1e999999", "NaN"]),
    )


# --------------------------------------------------------------------------------------------------------
# Invariants
# --------------------------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def strict_object_json(text: object) -> bool:
    """True when ``text`` is a string holding one strict-JSON object (no NaN/Infinity)."""
    if not isinstance(text, str):
        return False
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and not _has_non_finite(value)


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def tool_protocol_problem(messages: Sequence[Any]) -> str | None:
    """None when ``messages`` is a history a provider accepts, else what is wrong and where.

    Every entry is a message (a mapping); every tool call of an assistant message is a mapping with a
    non-empty string id unique in the whole history, and arguments that are a strict-JSON object; the
    calls are answered, each exactly once, by the ``tool`` messages right after their assistant message;
    every ``tool`` message answers such a call."""
    open_ids: set[str] = set()
    used: set[str] = set()
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            return f"entry {index} is not a message: {message!r:.80}"
        role = message.get("role")
        if role == "tool":
            call_id = message.get("toolCallId")
            if not isinstance(call_id, str) or call_id not in open_ids:
                return f"message {index}: tool result {call_id!r:.40} answers no open tool call"
            open_ids.discard(call_id)
            continue
        if open_ids:
            return f"message {index} ({role!r:.20}) comes while tool calls {sorted(open_ids)} are unanswered"
        if role != "assistant":
            continue
        calls = message.get("toolCalls")
        if calls is None:
            continue
        if not isinstance(calls, list):
            return f"message {index}: toolCalls is not a list: {calls!r:.80}"
        for call in calls:
            if not isinstance(call, Mapping):
                return f"message {index}: tool call {call!r:.60} is not an object"
            call_id = call.get("id")
            if not isinstance(call_id, str) or not call_id:
                return f"message {index}: tool call id {call_id!r:.40} is not a non-empty string"
            if call_id in used:
                return f"message {index}: tool call id {call_id!r} is used twice"
            if not strict_object_json(call.get("arguments")):
                return f"message {index}: tool call {call_id!r} has arguments {call.get('arguments')!r:.60}"
            used.add(call_id)
            open_ids.add(call_id)
    return f"tool calls {sorted(open_ids)} are never answered" if open_ids else None


def is_subsequence(kept: Sequence[Any], original: Sequence[Any]) -> bool:
    """True when ``kept`` is ``original`` with some entries removed (none changed, none reordered)."""
    position = 0
    for entry in kept:
        while position < len(original) and original[position] != entry:
            position += 1
        if position == len(original):
            return False
        position += 1
    return True


@dataclass
class Trial:
    """One generated input, and what the implementation returned for it or raised."""

    input: Any
    output: Any = None
    error: BaseException | None = None


def trials(
    strategy: st.SearchStrategy[Any],
    act: Callable[[Any], Any],
    *,
    examples: Sequence[Any] = (),
    max_examples: int | None = None,
) -> list[Trial]:
    """``act`` on each of ``examples`` (inputs that found a bug once), then on generated inputs.

    ``act`` gets a deep copy, so the recorded input is what was generated even when an implementation
    changes its argument; an exception is recorded, not raised, and steps assert over the trials."""
    recorded: list[Trial] = []

    def attempt(value: Any) -> None:
        trial = Trial(copy.deepcopy(value))
        try:
            trial.output = act(copy.deepcopy(value))
        except Exception as error:
            trial.error = error
        recorded.append(trial)

    for example in examples:
        attempt(example)
    profile(max_examples)(given(strategy)(attempt))()
    return recorded


def first_failure(found: Sequence[Trial], problem: Callable[[Trial], str | None]) -> str | None:
    """The problem of the smallest trial that has one (shortest input text), with that input."""
    failing = [(t, p) for t in found if (p := problem(t)) is not None]
    if not failing:
        return None
    trial, text = min(failing, key=lambda pair: len(repr(pair[0].input)))
    return f"{text}\ninput ({len(failing)} of {len(found)} inputs fail): {trial.input!r:.1500}"
