"""``SYNAPSE_MAX_TOOL_ITERATIONS`` wins over the ``maxIterations`` the caller passes: settings merged as
``{...options, ...env}``, so the environment, meant as the default, overrides an explicit choice.

Pattern: precedence between two sources of one value; only a run given both, disagreeing, shows it.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("agent",)
PATTERN = "precedence between two sources of one value"


class Mutant(ReferenceImplementation):
    name = "semantic-runner_env_over_option"

    def agent_runner(
        self, llm: Any, toolset: Any, *, max_iterations: int | None = None, **options: Any
    ) -> Any:
        raw = os.environ.get("SYNAPSE_MAX_TOOL_ITERATIONS", "").strip()
        if raw.lstrip("-").isdigit():
            max_iterations = int(raw)
        return super().agent_runner(llm, toolset, max_iterations=max_iterations, **options)


implementation = Mutant
