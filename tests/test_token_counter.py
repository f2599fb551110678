"""The cl100k counter is exact at every length: checked against tiktoken, an independent implementation,
on the vocabulary bpe-openai ships (no download)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from synapse_ref.context.token_counter import Cl100kTokenCounter, MessageTokenCache

pytest.importorskip("bpe_openai")
tiktoken = pytest.importorskip("tiktoken")

_PIECES = [
    *"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    *" \n\t\r.,;:'\"!?-_()[]{}<>/\\|@#$%^&*+=~`",
    *"中文字符测试日本語のテキスト한국어",
    "😀",
    "👍🏽",
    "🇫🇷",
    "👨‍👩‍👧",
    "é",
    "ñ",
    "ß",
    "\u00a0",
    "\u3000",
    "\u2028",
    "\x85",
    "  ",
    "   ",
    "\n\n",
    "\r\n",
    " \n ",
    "'s",
    "'ll",
    "'VE",
    "'re",
    "123456",
    "1,000.5",
    "def f(x):\n    return x\n",
    '{"role":"tool","content":"ok"}',
    "\\n",
    "\\u00e9",
]


@pytest.fixture(scope="module")
def oracle() -> Any:
    from bpe_openai import registry

    spec = registry.cl100k_base()
    return tiktoken.Encoding(
        "cl100k_oracle",
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )


def _text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(length))


def test_short_texts_of_every_kind_count_exactly(oracle: Any) -> None:
    counter = Cl100kTokenCounter()
    rng = random.Random(5)
    for _ in range(2000):
        text = _text(rng, rng.randint(0, 200))
        assert counter.count_tokens(text) == len(oracle.encode_ordinary(text)), repr(text)


@pytest.mark.parametrize(
    "unit",
    [
        "The quick brown fox jumps over the lazy dog, again and again. ",
        "  1\tdef handler(request):\n  2\t    return respond(request, status=200)\n",
        "上下文压缩会把旧的工具结果写入文件。😀 ",
        " ",
        "a",
    ],
    ids=["prose", "tool-output", "cjk-emoji", "spaces", "one-letter-run"],
)
def test_texts_beyond_a_million_characters_count_exactly(oracle: Any, unit: str) -> None:
    """The tokenizer wrapper refuses these lengths; the counter must not estimate instead."""
    text = (unit * (1_200_000 // len(unit) + 1))[:1_200_000]
    assert Cl100kTokenCounter().count_tokens(text) == len(oracle.encode_ordinary(text))


def test_mixed_long_text_counts_exactly(oracle: Any) -> None:
    text = _text(random.Random(9), 400_000)
    assert Cl100kTokenCounter().count_tokens(text) == len(oracle.encode_ordinary(text))


def test_a_message_is_counted_as_json_stringify_writes_lone_surrogates(oracle: Any) -> None:
    """``JSON.stringify`` writes a lone surrogate as a six-character escape and a pair as one character."""
    message = {"role": "user", "content": [{"type": "text", "text": "ok \ud800 \ud83d\ude80 \udc00"}]}
    text = '{"role":"user","content":[{"type":"text","text":"ok \\ud800 \U0001f680 \\udc00"}]}'
    counter = Cl100kTokenCounter()
    assert counter.count_tokens(text) == len(oracle.encode_ordinary(text))
    assert MessageTokenCache(counter).count_messages([message]) == counter.count_tokens(text)
