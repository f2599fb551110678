"""The reference reads settings and white space as the originals' JavaScript does (``js_text``)."""

from __future__ import annotations

import math

import pytest

from synapse_ref.js_text import (
    WHITESPACE,
    first_word,
    json_stringify,
    number,
    number_text,
    object_keys,
    parse_float,
    parse_int,
    trim,
)


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


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1.0, "1"),
        (-0.0, "0"),
        (0, "0"),
        (100.0, "100"),
        (-1.5, "-1.5"),
        (123.456, "123.456"),
        (1e16, "10000000000000000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.2345678e25, "1.2345678e+25"),
        (1e-6, "0.000001"),
        (2.5e-6, "0.0000025"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (123e-20, "1.23e-18"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (math.inf, "null"),
        (-math.inf, "null"),
        (math.nan, "null"),
        (2**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),
        (10**21, "1e+21"),
        (-(10**21), "-1e+21"),
        (10**400, "null"),
        (True, "true"),
    ],
)
def test_number_text_writes_numbers_as_json_stringify(value: float, expected: str) -> None:
    assert number_text(value) == expected


def test_object_keys_put_array_indices_first_by_number() -> None:
    keys = ["b", "10", "2", "-1", "01", "4294967294", "4294967295", "0", "a"]
    assert object_keys(keys) == ["0", "2", "10", "4294967294", "b", "-1", "01", "4294967295", "a"]
    assert object_keys(["role", "content"]) == ["role", "content"]


def test_json_stringify_writes_parsed_json_as_javascript_does() -> None:
    value = {"b": [1.0, None, True], "10": {"x": "\ud800\n\u2028é"}, "2": -0.0, "s": "<&>"}
    assert json_stringify(value) == '{"2":0,"10":{"x":"\\ud800\\n\u2028é"},"b":[1,null,true],"s":"<&>"}'
    assert json_stringify("\ud83d\ude00") == '"\U0001f600"'  # a pair held as two characters is one
    with pytest.raises(TypeError):
        json_stringify(object())
