"""Text a feature table's cell cannot show as it is, written the way the scenarios write it."""

from __future__ import annotations

import re

_CODE_POINT = re.compile(r"\{U\+([0-9A-Fa-f]{4,6})\}")


def code_points(text: str) -> str:
    """``{U+FEFF}``-style code points, for characters that would be invisible or break a table."""
    return _CODE_POINT.sub(lambda found: chr(int(found.group(1), 16)), text)


def cell_text(text: str) -> str:
    """``\\n`` for a line break and ``{U+XXXX}`` code points."""
    return code_points(text.replace("\\n", "\n"))
