"""Offload references are restored in messages of every role: the port scans all messages for
``Tool result is at:`` where the original restores ``tool`` messages only, so a user who pasted such a
line (or an assistant that quoted one) has the file's content put in their message for the summary.

Pattern: a filter (the role) dropped where every example reference sits in a tool message.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.context.compactor import ContextCompactor
from tools.mutation.semantic._sf_compactor import CompactorMutant

AREAS = ("context",)
PATTERN = "filter dropped where the examples agree"
BASELINE = "_baseline_orchestrator"


class Compactor(ContextCompactor):
    def restore_offloaded_content(self, messages: list[Any]) -> list[Any]:
        disguised = [{**m, "role": "tool", "_role": m.get("role")} for m in messages]
        restored = super().restore_offloaded_content(disguised)
        out = []
        for m in restored:
            m = dict(m)
            m["role"] = m.pop("_role")
            out.append(m)
        return out


class Mutant(CompactorMutant):
    name = "semantic-sf_cmp_restore_any_role"
    compactor = Compactor


implementation = Mutant
