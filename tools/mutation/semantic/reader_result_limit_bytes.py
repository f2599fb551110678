"""The ``[Result]`` summary limit (``SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT``, 200) counts UTF-8 bytes: a port
that measured with ``Buffer.byteLength`` (or Go's ``len(string)``) where the original counts characters.

Pattern: a length limit checked only on ASCII; a CJK result of 100 characters is 300 bytes, so it is cut
although it is within the limit.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate, ToolResultRecord, env_positive_int, turn_like

AREAS = ("reader",)
PATTERN = "length limit checked only on ASCII"


def truncate_bytes(content: str, limit: int) -> str:
    data = content.encode("utf-8")
    if len(data) <= limit:
        return content
    room = max(0, limit - 3)
    end = data.rfind(b"\n", 0, room)
    if end >= 0:
        return data[:end].decode("utf-8", "ignore") + "\n..."
    return data[:room].decode("utf-8", "ignore") + "..."


class Reader(Delegate):
    def compact(self, turns: Any, max_chars: int = 0) -> str:
        limit = env_positive_int("SYNAPSE_TOOL_RESULT_SUMMARY_LIMIT", 200)
        cut = []
        for turn in turns:
            if turn.role == "user" and turn.tool_results:
                results = tuple(
                    ToolResultRecord(r.tool_use_id, truncate_bytes(r.content, limit))
                    for r in turn.tool_results
                )
                cut.append(turn_like(turn, tool_results=results))
            else:
                cut.append(turn)
        return str(self._inner.compact(cut, max_chars))


class Mutant(ReferenceImplementation):
    name = "semantic-reader_result_limit_bytes"

    def conversation_reader(self) -> Any:
        return Reader(super().conversation_reader())


implementation = Mutant
