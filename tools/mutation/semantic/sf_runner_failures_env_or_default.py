"""``SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES`` is read with ``parseInt(v) || 3``: a missing, non-numeric or
zero value falls back to 3, but a negative one is taken, where the original's ``parseEnvPositiveInt``
falls back for anything not positive; with ``-1`` the runner stops after its first tool round.

Pattern: a default applied when the value is 0 (``x || default``); the examples' bad values are ``0``
and ``many``.
"""

from __future__ import annotations

import os
import re
from typing import Any

from synapse_ref.adapter import ReferenceImplementation

AREAS = ("agent",)
PATTERN = "default applied when the value is 0"
NAME = "SYNAPSE_MAX_CONSECUTIVE_TOOL_FAILURES"


def or_default(default: int) -> int:
    found = re.match(r"\s*([+-]?\d+)", os.environ.get(NAME, ""))
    return (int(found.group(1)) if found else 0) or default


class Mutant(ReferenceImplementation):
    name = "semantic-sf_runner_failures_env_or_default"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        if options.get("max_consecutive_tool_failures") is None:
            options["max_consecutive_tool_failures"] = or_default(3)
        return super().agent_runner(llm, toolset, **options)


implementation = Mutant
