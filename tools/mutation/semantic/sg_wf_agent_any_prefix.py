"""The SubagentStop hook drops any plugin prefix of ``agent_type`` (``agentType.split(":").pop()``), where
the original removes only its own ``ot:``: a subagent of another plugin that happens to share a name
with one of the workflow's agents (``other:developer``) completes the workflow's stage, counts its
verdict and hands the main agent the next step of a workflow it has nothing to do with.

Pattern: two rules agree on the examples (every agent of the examples is ``ot:``-prefixed or bare).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "two rules agree on the examples"


def _any_prefix_dropped(event: Any) -> Any:
    if not isinstance(event, Mapping):
        return event
    agent = event.get("agent_type")
    if isinstance(agent, str) and ":" in agent:
        return {**event, "agent_type": agent.strip().split(":")[-1]}
    return event


class Workflow(Delegate):
    def on_stop(self, event: Any) -> Any:
        return self._inner.on_stop(_any_prefix_dropped(event))

    def on_stop_command(self, stdin: str) -> Any:
        try:
            event = json.loads(stdin)
        except (ValueError, RecursionError):
            return self._inner.on_stop_command(stdin)
        changed = _any_prefix_dropped(event)
        return self._inner.on_stop_command(stdin if changed is event else json.dumps(changed))


class Mutant(ReferenceImplementation):
    name = "semantic-sg_wf_agent_any_prefix"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
