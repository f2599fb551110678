"""The orchestrator's ``SYNAPSE_*`` variables win over the thresholds the caller passes: the port merges
its settings as ``{...options, ...envSettings}`` (the environment read last "so the user can always
override"), where the contract takes the environment only for the options left out, so an
orchestrator created with ``compactTriggerThreshold=20000`` triggers at the ``SYNAPSE_COMPACT_TRIGGER_
THRESHOLD`` of the shell it runs in.

Pattern: precedence between two sources of one value (option vs environment); the scenarios that pass
thresholds run with the variables unset, and those that set variables pass no thresholds.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.settings import parse_env_positive_int
from tools.mutation.semantic._orchestrator import Orchestrator

AREAS = ("context",)
PATTERN = "precedence between two sources"
BASELINE = "_baseline_orchestrator"

VARIABLES = {
    "offload_threshold": "SYNAPSE_OFFLOAD_THRESHOLD",
    "compact_trigger_threshold": "SYNAPSE_COMPACT_TRIGGER_THRESHOLD",
    "compact_cooldown_steps": "SYNAPSE_COMPACT_COOLDOWN_STEPS",
}


class EnvOverOption(Orchestrator):
    def __init__(self, implementation: Any, llm: Any, reference: Any, **options: Any) -> None:
        super().__init__(implementation, llm, reference, **options)
        from_env: dict[str, Any] = {
            field: parse_env_positive_int(os.environ[name], getattr(self.settings, field))
            for field, name in VARIABLES.items()
            if name in os.environ
        }
        self.settings = dataclasses.replace(self.settings, **from_env)


class Mutant(ReferenceImplementation):
    name = "semantic-sh_orch_env_over_option"

    def context_orchestrator(self, llm: Any, **options: Any) -> Any:
        return EnvOverOption(self, llm, super().context_orchestrator(llm, **options), **options)


implementation = Mutant
