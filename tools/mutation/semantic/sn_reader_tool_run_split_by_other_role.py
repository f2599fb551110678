"""Consecutive tool lines of a Synapse session are split into two user turns by a line of another role
between them (a ``system`` line, an event line another tool wrote): the port closes the pending group
of tool results at every line that is not a tool line (``if (line.role !== 'tool') flush()``, placed
before the check that drops roles other than user and assistant), where the rule closes it only at the
next user or assistant turn, a dropped line being no turn at all.  ``summarize`` then counts one user
turn too many and ``read`` returns the results of one round as two turns.

Pattern: an ignored input that still has an effect; in the examples tool lines follow each other
directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("reader",)
PATTERN = "an ignored line that still splits a group"


def _other_role(line: bytes) -> bool:
    try:
        data = json.loads(line.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("role") not in ("user", "assistant", "tool")


class Reader(Delegate):
    def _mut_parse(self, data: bytes) -> list[Any]:
        """The reference's parse, restarted after every line of another role (line numbers kept: the
        lines before a segment are given as blank lines, which the parser skips)."""
        lines = data.split(b"\n")
        turns: list[Any] = []
        start = 0
        for index, line in enumerate(lines):
            if _other_role(line) or index == len(lines) - 1:
                segment = b"\n" * start + b"\n".join(lines[start : index + 1])
                turns += self._inner._parse_blocks([segment])
                start = index + 1
        return turns

    def read(self, file_path: Any) -> Any:
        path = Path(file_path)
        if not path.is_file():
            return self._inner.read(file_path)
        return self._mut_parse(path.read_bytes())

    def read_truncated(self, file_path: Any, max_chars: int) -> Any:
        path = Path(file_path)
        if max_chars <= 0 or not path.is_file():
            return self._inner.read_truncated(file_path, max_chars)
        window, starts_mid_line = self._inner._tail_window(path, max_chars)
        window = self._inner._align_to_line(window, starts_mid_line)
        return self._mut_parse(window.encode("utf-8"))


class Mutant(ReferenceImplementation):
    name = "semantic-sn_reader_tool_run_split_by_other_role"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
