"""An offload file's extension is ``json`` exactly when ``json.loads`` accepts its content without the
``NaN``/``Infinity`` constants (which ``JSON.parse`` refuses)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_ref.context.offload_storage import OffloadStorage

json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
).map(lambda value: json.dumps(value, ensure_ascii=False))
pieces = st.sampled_from(
    [" ", "\t", "\n", "\r", "\x0c", "\ufeff", "\u00a0", "x", "0", "1 2", "NaN", "-Infinity", "]"]
)
contents = st.one_of(
    st.text(max_size=40),
    json_like,
    st.tuples(st.lists(pieces, max_size=3), json_like, st.lists(pieces, max_size=3)).map(
        lambda parts: "".join(parts[0]) + parts[1] + "".join(parts[2])
    ),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
)


def _refuse(name: str) -> float:
    raise ValueError(name)


def _accepted(content: str) -> bool:
    try:
        json.loads(content, parse_constant=_refuse)
    except (ValueError, RecursionError):
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(contents)
def test_the_extension_says_whether_json_accepts_the_content(content: str) -> None:
    with tempfile.TemporaryDirectory() as directory:
        saved = OffloadStorage(Path(directory)).save(content)
        assert saved.endswith(".json" if _accepted(content) else ".txt")
        assert Path(saved).read_bytes().decode("utf-8") == content
