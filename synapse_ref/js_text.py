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
