"""The hook command looks for its files under ``SYNAPSE_WORKFLOW_HOME`` when that is set, and under the
root it was given only otherwise: the port folds the entry point's default into the command
(``const root = process.env.SYNAPSE_WORKFLOW_HOME ?? options.root``), where the root handed to the
workflow is the one to use and the variable only chooses it for the program run without one.  A hook
run for one project's workflow while the variable names another home finds no state there and answers
an empty result.

Pattern: precedence between two sources of one value (an explicit root against an environment
variable); no example sets the variable.
"""

from __future__ import annotations

import os
from typing import Any

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.workflow.command import run_on_stop
from tools.mutation.semantic._support import Delegate

AREAS = ("workflow",)
PATTERN = "precedence between two sources"


class Workflow(Delegate):
    def on_stop_command(self, stdin: str) -> Any:
        home = os.environ.get("SYNAPSE_WORKFLOW_HOME")
        if not home:
            return self._inner.on_stop_command(stdin)
        return run_on_stop(stdin, root=home, clock=self._inner._clock)


class Mutant(ReferenceImplementation):
    name = "semantic-sp_wf_env_home_over_root"

    def staged_workflow(self, root: Any, *, clock: Any) -> Any:
        return Workflow(super().staged_workflow(root, clock=clock))


implementation = Mutant
