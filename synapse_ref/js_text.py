"""How the originals read text: JavaScript's white space and its number parsers.

Both originals are JavaScript, and the spec follows them where a seed only gives meaning, so a setting
or a message must be read as ``trim()``, ``parseInt``, ``parseFloat`` and ``Number()`` read it.  Python's
own readings differ at the edges: ``str.strip()`` removes U+001C..U+001F and U+0085 and keeps U+FEFF;
``int()``, ``float()`` and ``\\d`` accept digits of every script (``'٥'`` is 5) and ``_`` between digits;
``int()`` refuses more than 4,300 digits with an exception; ``json.loads`` takes ``NaN`` and ``Infinity``,
which ``JSON.parse`` refuses.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

WHITESPACE = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What ``trim()`` removes: ECMAScript's WhiteSpace (Unicode's space separators, tab, vertical tab, form
feed, U+FEFF) and LineTerminator (LF, CR, U+2028, U+2029)."""

SPACES = "[" + re.escape(WHITESPACE) + "]*"
"""A pattern for any run of that white space, as JavaScript's ``\\s*`` matches."""
_SPACE_RUN = re.compile("[" + re.escape(WHITESPACE) + "]+")
_DECIMAL = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_INT_PREFIX = re.compile(SPACES + r"([+-]?)([0-9]+)")
_FLOAT_PREFIX = re.compile(SPACES + r"([+-]?(?:Infinity|" + _DECIMAL + "))")
_NUMBER = re.compile(r"[+-]?(?:Infinity|" + _DECIMAL + r")|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")
_RADIX = {"x": 16, "o": 8, "b": 2}
_MANY_DIGITS = 400
"""More digits than the largest double has (309), and fewer than ``int()`` takes (4,300): past it an
integer is Infinity to JavaScript without converting it."""


def trim(text: str) -> str:
    """``text.trim()``."""
    return text.strip(WHITESPACE)


def js_length(text: str) -> int:
    """``text.length``: UTF-16 code units, so a character outside the Basic Multilingual Plane (an emoji)
    counts 2, and a lone surrogate 1."""
    return len(text) + sum(1 for char in text if char > "\uffff")


def array_join_text(value: object) -> str:
    """What ``Array.join`` writes for a part's text, as the original joins text parts
    (``parts.map((part) => part.text).join(separator)``): nothing for a missing or null text, ``true`` and
    ``false`` for booleans, a string as it is."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def first_word(text: str) -> str:
    r"""``text.trim().split(/\s+/)[0]``."""
    return _SPACE_RUN.split(trim(text), maxsplit=1)[0]


def parse_int(text: str) -> int | None:
    """``parseInt(text, 10)``, exact, or None where JavaScript reads NaN or, past the largest double,
    ±Infinity: the originals' settings refuse both (``Number.isFinite``) and fall back."""
    match = _INT_PREFIX.match(text)
    if match is None:
        return None
    sign, digits = match.groups()
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MANY_DIGITS:
        return None
    value = int(sign + digits)
    try:
        float(value)
    except OverflowError:
        return None
    return value


def parse_float(text: str) -> float | None:
    """``parseFloat(text)``, None for NaN; a leading ``Infinity`` reads as ``inf``, as in JavaScript."""
    match = _FLOAT_PREFIX.match(text)
    return float(match.group(1)) if match else None


def number(text: str) -> float:
    """``Number(text)``: the whole text after trimming, ``''`` is 0, hexadecimal, octal and binary
    literals read, anything else NaN."""
    body = trim(text)
    if not body:
        return 0.0
    if _NUMBER.fullmatch(body) is None:
        return math.nan
    radix = _RADIX.get(body[1:2].lower()) if body[:1] == "0" else None
    if radix is not None:
        try:
            return float(int(body[2:], radix))
        except OverflowError:  # past the largest double, which JavaScript rounds to Infinity
            return math.inf
    return float(body)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_parse(text: str) -> Any:
    """``JSON.parse(text)``: ``json.loads`` without the ``NaN``, ``Infinity`` and ``-Infinity`` it would
    take; ``ValueError`` for any text that is not JSON."""
    return json.loads(text, parse_constant=_refuse_constant)


_PUNCTUATION_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
"""The space and ASCII punctuation in the order of ICU's root collation, which ``localeCompare`` uses:
all of them come before the digits, and the digits before the letters."""


def locale_compare_key(
    text: str,
) -> tuple[tuple[tuple[int, str], ...], tuple[str, ...], tuple[bool, ...], str]:
    """A sort key giving the order of ``a.localeCompare(b)`` (ICU, en-US) for names such as skills have
    (Latin letters, digits, spaces and ASCII punctuation; other scripts after the Latin letters): letters
    compared without case or accents first (``alpha`` < ``Beta`` < ``gamma``; ``éclair`` < ``gamma``),
    space and punctuation (``_`` before ``-``) before digits before letters; then the accents (by code
    point: ICU puts an acute before a grave); then the case, lower case first (``beta`` < ``Beta``).
    Python's ``sorted`` compares code points, which puts every capitalised name before the lower-case
    ones and ``éclair`` after ``Zeta``.  Names equal in all three (other NFD forms) fall back to code
    points, so the order never depends on the order the names came in."""
    primary: list[tuple[int, str]] = []
    accents: list[str] = []
    upper: list[bool] = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char):
            if accents:
                accents[-1] += char
            continue
        folded = char.casefold()
        if char in _PUNCTUATION_ORDER:
            primary.append((0, chr(_PUNCTUATION_ORDER.index(char))))
        elif char.isascii() and char.isalnum():
            primary.append((1, folded))
        else:
            primary.append((2, folded))
        accents.append("")
        upper.append(char != folded)
    return tuple(primary), tuple(accents), tuple(upper), text  # the text itself: a total order


_MAX_SAFE_INTEGER = 2**53
_EXPONENT_FROM = 21
"""``Number.prototype.toString`` writes a number of 22 or more integer digits with an exponent."""


def number_text(value: float) -> str:
    """The text ``JSON.stringify`` writes for a number: ``1.0`` is ``1``, ``-0.0`` is ``0``, ``1e16`` is
    ``10000000000000000``, ``1e21`` is ``1e+21``, ``1.5e-07`` is ``1.5e-7``, ``1e-6`` is ``0.000001``, and
    NaN and ±Infinity are ``null``.  An integer is the double JavaScript reads it as (past 2**53 digits
    round; past the largest double it is Infinity).  The digits are the shortest that read back as the
    same double, which Python's ``repr`` gives too; only where they go differs."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "null"
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    significant = digits.rstrip("0")
    # value = significant * 10 ** (point - len(significant)), as ECMAScript's Number::toString puts it
    point = len(digits) + int(exponent or 0) - len(fraction)
    count = len(significant)
    if count <= point <= _EXPONENT_FROM:
        text = significant + "0" * (point - count)
    elif 0 < point <= _EXPONENT_FROM:
        text = significant[:point] + "." + significant[point:]
    elif -6 < point <= 0:
        text = "0." + "0" * -point + significant
    else:
        power = point - 1
        head = significant[0] + ("." + significant[1:] if count > 1 else "")
        text = f"{head}e{'+' if power >= 0 else '-'}{abs(power)}"
    return sign + text


_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")
_LAST_ARRAY_INDEX = 2**32 - 2
_SURROGATE = re.compile("[\ud800-\udfff]")
_encode_string = json.encoder.encode_basestring


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.fullmatch(key) is not None and int(key) <= _LAST_ARRAY_INDEX


def object_keys(keys: list[str]) -> list[str]:
    """The keys of an object in JavaScript's order: those that are array indices (``"0"``, ``"7"``,
    ``"10"``, up to 2**32 - 2; not ``"07"`` or ``"-1"``) first, by their number, then the others in the
    order they were written.  ``JSON.parse`` builds objects, and ``JSON.stringify`` writes them, in that
    order, where a Python dict keeps the order of the text."""
    indices = sorted((k for k in keys if _is_array_index(k)), key=int)
    if not indices:
        return keys
    return indices + [k for k in keys if not _is_array_index(k)]


def string_text(text: str) -> str:
    """``JSON.stringify(text)``: ``json.dumps`` without ``ensure_ascii``, except that a lone surrogate is
    written as its escape (``\\ud800``), as JavaScript has done since ES2019; a high and a low surrogate
    held as two characters are one character to JavaScript, so they are joined first."""
    encoded: str = _encode_string(text)
    if not _SURROGATE.search(encoded):
        return encoded
    joined = encoded.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", joined)


def json_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` of a parsed JSON value (dicts, lists, strings, numbers, booleans, None):
    compact, non-ASCII kept, numbers as :func:`number_text` writes them and object keys in
    :func:`object_keys` order.  Parsed JSON has string keys only, and a list is all that is left once
    the other kinds are handled (anything else is a ``TypeError``, not being iterable).
    ``RecursionError`` for a value nested deeper than Python recurses."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return string_text(value)
    if isinstance(value, (bool, int, float)):
        return number_text(value)
    if isinstance(value, dict):
        keys = object_keys(list(value))
        return "{" + ",".join(string_text(k) + ":" + json_stringify(value[k]) for k in keys) + "}"
    return "[" + ",".join(json_stringify(item) for item in value) + "]"
