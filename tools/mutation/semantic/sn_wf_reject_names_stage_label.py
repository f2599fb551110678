"""A reject is announced with the rejecting stage's label: the port builds the reject lines like the
fail lines (``🔙 ${stage.label}拒絕（n/3）``, ``⛔ ${stage.label}拒絕已達上限``), where the original says
``審查拒絕`` (review rejected) whichever reviewing stage rejected.  A SECURITY reject reads ``🔙 安全拒絕``
and a DB-REVIEW one ``🔙 DB審查拒絕``; REVIEW's own label being 審查, the two agree on every REVIEW
reject.  (The reference itself had this bug; WF-130 and WF-131 pin the original's text.)

Pattern: two rules agree on the examples (every example reject comes from the REVIEW stage).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.js_text import trim
from synapse_ref.workflow.registry import AGENT_STAGES, STAGES
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"
REVIEW_REJECT = "審查拒絕"


def _label(event: Any) -> str | None:
    if not isinstance(event, dict):
        return None
    agent = trim(str(event.get("agent_type") or "")).removeprefix("ot:")
    base = AGENT_STAGES.get(agent)
    return STAGES[base].label if base is not None else None


def relabelled(result: str, label: str | None) -> str:
    if label is None:
        return result
    lines = result.split("\n")
    for prefix in ("🔙 ", "⛔ "):
        lines = [
            prefix + label + line[len(prefix + REVIEW_REJECT) - len("拒絕") :]
            if line.startswith(prefix + REVIEW_REJECT)
            else line
            for line in lines
        ]
    return "\n".join(lines)


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        answer = self._inner.on_stop(event)
        return {**answer, "result": relabelled(str(answer.get("result", "")), _label(event))}

    def on_stop_command(self, stdin: str) -> Any:
        outcome = self._inner.on_stop_command(stdin)
        try:
            event = json.loads(stdin)
            payload = json.loads(outcome.stdout)
        except (ValueError, AttributeError, TypeError, RecursionError):
            return outcome
        if not isinstance(payload, dict) or not isinstance(payload.get("result"), str):
            return outcome
        payload["result"] = relabelled(payload["result"], _label(event))
        return dataclasses.replace(outcome, stdout=json.dumps(payload, ensure_ascii=False) + "\n")


class Mutant(ReferenceImplementation):
    name = "semantic-sn_wf_reject_names_stage_label"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
