"""The "wait for the parallel agents" hint lists the agents still at work in alphabetical order: the port
builds it from a sorted copy of the keys (``sorted(active)``, ``keys.sort()``, a ``TreeMap``), where the
original's ``Object.keys(activeAgents)`` keeps the order in which the agents were started.

Pattern: sort by one key vs another when the data agree; the examples start ``code-reviewer`` before
``security-reviewer``, which is also their alphabetical order.
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "sort by one key vs another"
WAIT = "⏭️ 下一步：等待並行 agent 完成："


def sorted_hint(result: str) -> str:
    lines = result.split("\n")
    for number, line in enumerate(lines):
        if line.startswith(WAIT):
            names = line[len(WAIT) :].split(", ")
            lines[number] = WAIT + ", ".join(sorted(names))
    return "\n".join(lines)


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        answer = self._inner.on_stop(event)
        return {**answer, "result": sorted_hint(str(answer.get("result", "")))}

    def on_stop_command(self, stdin: str) -> Any:
        import dataclasses
        import json

        outcome = self._inner.on_stop_command(stdin)
        try:
            payload = json.loads(outcome.stdout)
        except (ValueError, AttributeError, TypeError):
            return outcome
        if not isinstance(payload, dict) or not isinstance(payload.get("result"), str):
            return outcome
        payload["result"] = sorted_hint(payload["result"])
        return dataclasses.replace(outcome, stdout=json.dumps(payload, ensure_ascii=False) + "\n")


class Mutant(ReferenceImplementation):
    name = "semantic-sd_wf_active_agents_sorted"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
