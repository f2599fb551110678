"""Text a feature table's cell cannot show as it is, written the way the scenarios write it."""

from __future__ import annotations

import re

_CODE_POINT = re.compile(r"\{U\+([0-9A-Fa-f]{4,6})\}")
_REPEAT = re.compile(r"\{([^{}\s]+) \* ([0-9]+)\}")


def expand(text: str) -> str:
    """``{U+FEFF}``-style code points, for characters that would be invisible or break a table, and
    ``{0 * 308}`` for a text repeated (``0`` 308 times), too long for a cell."""
    text = _REPEAT.sub(lambda found: found.group(1) * int(found.group(2)), text)
    return _CODE_POINT.sub(lambda found: chr(int(found.group(1), 16)), text)


def text(cell: str) -> str:
    """``\\n`` for a line break, and the notations of :func:`expand`."""
    return expand(cell.replace("\\n", "\n"))
