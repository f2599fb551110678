"""Token counting: the counter port, the default counter and a per-message cache.

A message counts as the tokens of its compact JSON text (role and keys included), like the original.
The original counts the whole history twice per agent step; on long sessions that dominates the step
(seconds for tens of thousands of messages), so :class:`MessageTokenCache` remembers the count of each
distinct message text and only new or changed messages are tokenised again.

A counter that fails (a tokenizer that cannot load, an injected counter that raises) does not stop the
agent: as in the original, such a text is estimated at one token per 4 characters (JavaScript's
``length``, UTF-16 code units), with a warning, and asked of the counter again next time.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import logging
import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import orjson

from synapse_ref.js_text import js_length, json_stringify

logger = logging.getLogger("synapse.context.token_counter")

FALLBACK_CHARS_PER_TOKEN = 4
"""The estimate when the counter fails: ``Math.ceil(text.length / 4)``, as the original falls back."""


class TokenCounter(Protocol):
    def count_tokens(self, text: str) -> int: ...


class Cl100kTokenCounter:
    """Exact ``cl100k_base`` counts at any length, through the optional, offline ``bpe-openai`` package.

    The package's Python wrapper refuses texts of a million characters or 200,000 tokens (a caller
    would have to fall back to an estimate exactly on the longest histories) and builds three
    vocabularies in Python on import.  Its Rust tokenizer has neither limit: it pre-tokenises with the
    cl100k pattern and counts each piece with linear-time BPE, so the count is exact and linear at
    every length, and only the one vocabulary it is asked for is loaded.  It counts valid Unicode:
    :func:`~synapse_ref.js_text.json_stringify` escapes the lone surrogates a message may hold, as
    ``JSON.stringify`` does.
    """

    def __init__(self) -> None:
        self._tokenizer = _cl100k_tokenizer()

    def count_tokens(self, text: str) -> int:
        return int(self._tokenizer.count(text))


@functools.cache
def _cl100k_tokenizer() -> Any:
    """The Rust tokenizer, built once per process (it is immutable; building it takes tens of ms)."""
    return _bpe_bindings().tokenizer_for_encoding("cl100k_base")


def _bpe_bindings() -> Any:
    """``bpe_openai._bindings`` without running ``bpe_openai/__init__``, which parses the cl100k, o200k
    and voyage3 vocabularies in Python (most of a second) only to fill a model table."""
    loaded = sys.modules.get(_BINDINGS)
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("bpe_openai")  # locates the package without importing it
    for location in (package.submodule_search_locations or []) if package else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(location, "_bindings" + suffix)
            if not os.path.isfile(path):
                continue
            loader = importlib.machinery.ExtensionFileLoader(_BINDINGS, path)
            spec = importlib.util.spec_from_file_location(_BINDINGS, path, loader=loader)
            if spec is None:
                continue
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            sys.modules[_BINDINGS] = module  # a later ``import bpe_openai`` reuses it
            return module
    raise ImportError("bpe-openai is not installed")


_BINDINGS = "bpe_openai._bindings"


def default_token_counter() -> TokenCounter:
    """The exact counter: ``bpe-openai`` is a dependency, so there is no silent estimate."""
    return Cl100kTokenCounter()


def count_message_tokens(messages: Iterable[Mapping[str, Any]], counter: TokenCounter) -> int:
    """The count of a history counted once (a cache kept across counts: :class:`MessageTokenCache`)."""
    return MessageTokenCache(counter).count_messages(messages)


class MessageTokenCache:
    """Counts messages with ``counter``, remembering the count of each distinct message text."""

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter
        self._counts: dict[str, int] = {}

    def count_messages(self, messages: Iterable[Mapping[str, Any]]) -> int:
        # A message is counted as its compact JSON text, non-ASCII kept, as the original counts its
        # JSON.stringify text.  orjson writes that text for what messages hold; what it refuses (lone
        # surrogates, integers beyond 64 bits) is written by json_stringify.
        # Two differences are left on purpose: orjson writes a float without fraction as 2.0 (JavaScript:
        # 2) and keeps a dict's key order (JavaScript puts array-index keys first).  Telling such messages
        # apart costs a scan of every text, as much as half the count itself; they shift a count by a
        # token or two.  Inlined: on long histories calls cost a fifth of the count.
        counts, count_tokens, dumps = self._counts, self.counter.count_tokens, orjson.dumps
        total = 0
        failures: list[Exception] = []
        for message in messages:
            try:
                text = dumps(message).decode("utf-8")
            except TypeError:
                text = json_stringify(message)
            count = counts.get(text)
            if count is None:
                try:
                    count = counts[text] = count_tokens(text)
                except Exception as exc:  # any failure of the counter: estimate this text instead
                    failures.append(exc)
                    count = -(-js_length(text) // FALLBACK_CHARS_PER_TOKEN)  # not cached
            total += count
        if failures:
            logger.warning(
                "Token counting failed for %d message(s), fell back to %d characters per token: %s",
                len(failures),
                FALLBACK_CHARS_PER_TOKEN,
                failures[0],
            )
        return total
