"""The reference implementation seen through the spec's contract (``synapse_spec.contract``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import synapse_ref
from synapse_ref.llm.scripted import ScriptedLLM

if TYPE_CHECKING:
    from synapse_spec import contract


class ReferenceImplementation:
    """Builds reference components with the collaborators a scenario injects."""

    name = "synapse-ref"
    version = synapse_ref.__version__
    capabilities = frozenset({"reader", "skills", "context", "session", "agent", "repl", "workflow"})

    def scripted_llm(self, model: str = "fake-model") -> ScriptedLLM:
        return ScriptedLLM(model)

    # -- seed 003: ConversationReader and skill-import feedback ------------------------------------------
    # (reader factories)

    # -- context layer -----------------------------------------------------------------------------------
    # (context factories)

    # -- session layer -----------------------------------------------------------------------------------
    # (session factories)

    # -- agent layer and REPL ----------------------------------------------------------------------------
    # (agent factories)

    # -- staged workflow ---------------------------------------------------------------------------------
    # (workflow factories)


def implementation() -> ReferenceImplementation:
    """A fresh reference implementation (the default of ``--synapse-impl``)."""
    return ReferenceImplementation()


if TYPE_CHECKING:
    _conforms: contract.Implementation = ReferenceImplementation()
