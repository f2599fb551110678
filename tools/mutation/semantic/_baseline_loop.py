"""The reference adapter with the self-contained agent loop of ``_runner`` and no rule changed.

Not a mutant (its name starts with ``_``): it must pass the agent and REPL features, which shows that
the loop mutants are killed by their changed rule and not by the loop itself::

    pytest features/agent features/repl --synapse-impl=tools.mutation.semantic._baseline_loop
"""

from __future__ import annotations

from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent", "repl")


class Baseline(ReferenceImplementation):
    name = "semantic-baseline-loop"
    loop = AgentLoop

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return self.loop(self, llm, toolset, **options)


implementation = Baseline
