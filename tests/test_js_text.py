"""The reference reads settings and white space as the originals' JavaScript does (``js_text``)."""

from __future__ import annotations

import math

import pytest

from synapse_ref.js_text import WHITESPACE, first_word, number, parse_float, parse_int, trim


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        ("  +7 items", 7),
        ("-3", -3),
        ("2.9", 2),
        ("1e3", 1),
        ("\ufeff\u3000 4", 4),
        ("\x1f4", None),
        ("٤", None),
        ("４", None),
        ("- 4", None),
        ("", None),
        ("0" * 5000 + "9", 9),
        ("9" * 308, int("9" * 308)),
        ("9" * 309, None),
        ("-" + "9" * 5000, None),
    ],
)
def test_parse_int_reads_as_parseInt_and_refuses_what_is_not_finite(text: str, expected: int | None) -> None:
    assert parse_int(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.25", 0.25),
        (" .5.5", 0.5),
        ("1e", 1.0),
        ("-Infinity and more", -math.inf),
        ("infinity", None),
        ("٠.٥", None),
    ],
)
def test_parse_float_reads_as_parseFloat(text: str, expected: float | None) -> None:
    assert parse_float(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0.0),
        (" \ufeff2.5\u2028", 2.5),
        ("0x10", 16.0),
        ("0B11", 3.0),
        ("0o17", 15.0),
        ("Infinity", math.inf),
        ("0x" + "f" * 300, math.inf),
        ("-0x10", math.nan),
        ("1_5", math.nan),
        ("２", math.nan),
        ("inf", math.nan),
        (".", math.nan),
        ("5.", 5.0),
        ("\x1f5", math.nan),
    ],
)
def test_number_reads_as_Number(text: str, expected: float) -> None:
    value = number(text)
    assert value == expected or (math.isnan(value) and math.isnan(expected))


def test_trim_removes_what_javascript_removes_and_nothing_else() -> None:
    assert trim("\ufeff\u00a0 text \u3000\u2029") == "text"
    assert trim("\x1c\x1f\x85text\x85") == "\x1c\x1f\x85text\x85"
    assert all(not trim(char) for char in WHITESPACE)


def test_first_word_splits_at_javascript_white_space() -> None:
    assert first_word("\ufeff git\u3000status") == "git"
    assert first_word("a\x1fb c") == "a\x1fb"
