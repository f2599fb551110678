"""The answer to a sandbox permission treats output made only of whitespace as no output: the port writes
one ``present(text) = text.trim().length > 0`` helper (the test the original's ``/bash`` command uses)
for both answers, where the original's permission handler tests only for empty text: ``allow_once``
shows the unsandboxed command's stdout and ``[stderr]`` whenever they are not empty, and the retry after
``allow_session``/``allow_permanent`` joins the non-empty output and message, so a command that printed a
lone newline answers ``"\\n"``, not ``(Command exited with code 0)``.

Pattern: empty vs blank; the examples' outputs are either empty or carry visible text.
"""

from __future__ import annotations

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop

AREAS = ("agent",)
PATTERN = "empty vs blank"
BASELINE = "_baseline_loop"


class BlankAnswers(AgentLoop):
    def _shown(self, text: str) -> bool:
        return isinstance(text, str) and text.strip() != ""


class Mutant(Baseline):
    name = "semantic-sh_sandbox_answer_blank_dropped"
    loop = BlankAnswers


implementation = Mutant
