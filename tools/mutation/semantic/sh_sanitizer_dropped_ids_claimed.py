"""The ids of a tool round the sanitizer drops still count as used: the port records every id it has
seen (``seen.add(call.id)`` as it walks the calls, before it knows whether the round stays), where an
id must only be unique among the rounds that are *kept*, so a later, valid round whose call reuses the
id of a removed one (a retried call after an interrupted round, a provider that numbers calls per
request) is removed too, and the history loses a complete round for nothing.

Pattern: "nothing is left behind" checked after one branch only: the reused-id examples reuse the ids
of rounds that were kept; no example reuses the id of a round that was dropped.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._sanitizer import Message, Sanitized, Sanitizer

AREAS = ("agent", "context")
PATTERN = "state checked after one branch only"
BASELINE = "_baseline_sanitizer"


class ClaimsDroppedIds(Sanitizer):
    def __call__(self, messages: list[Any]) -> Sanitized:
        entries = list(messages)
        out: list[Message] = []
        seen: set[str] = set()
        index, total = 0, len(entries)
        while index < total:
            message = entries[index]
            if not isinstance(message, dict):
                index += 1
                continue
            role = message.get("role")
            if role == "assistant":
                end = index + 1
                while end < total and isinstance(entries[end], dict) and entries[end].get("role") == "tool":
                    end += 1
                calls = message.get("toolCalls")
                calls = [] if calls is None else calls
                kept = self.answered(calls, entries[index + 1 : end]) if isinstance(calls, list) else None
                listed = calls if isinstance(calls, list) else []
                ids = {c["id"] for c in listed if isinstance(c, dict) and isinstance(c.get("id"), str)}
                reused = bool(ids & seen)
                seen.update(ids)  # every id met so far, kept round or not
                if kept is not None and not reused:
                    out.append(message)
                    out.extend(kept)
                    index += 1 + len(kept)
                else:
                    out.extend(self.dropped(message))
                    index = end
            elif role == "tool":
                index += 1
            else:
                out.append(message)
                index += 1
        rewritten = any(a is not b for a, b in zip(out, entries, strict=False))
        return Sanitized(out, len(out) != total or rewritten)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_sanitizer_dropped_ids_claimed"

    def sanitize_tool_protocol_history(self, messages: list[Any]) -> Sanitized:
        return ClaimsDroppedIds()(messages)


implementation = Mutant
