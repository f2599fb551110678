"""The answer to a sandbox permission treats output made only of whitespace as no output: the port writes
one ``present(text) = text.trim().length > 0`` helper (the test the original's ``/bash`` command uses)
for both answers, where the original's permission handler tests only for empty text: ``allow_once``
shows the unsandboxed command's stdout and ``[stderr]`` whenever they are not empty, and the retry after
``allow_session``/``allow_permanent`` joins the non-empty output and message, so a command that printed a
lone newline answers ``"\\n"``, not ``(Command exited with code 0)``.

Pattern: empty vs blank; the examples' outputs are either empty or carry visible text.
"""

from __future__ import annotations

import posixpath

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import OPTIONS, AgentLoop

AREAS = ("agent",)
PATTERN = "empty vs blank"
BASELINE = "_baseline_loop"


def present(text: object) -> bool:
    return isinstance(text, str) and text.strip() != ""


class BlankAnswers(AgentLoop):
    async def resolve_sandbox_permission(self, option: str) -> str:
        pending = self._pending
        if pending is None:
            raise RuntimeError("No pending sandbox permission request")
        if option not in OPTIONS:
            raise RuntimeError(f"Unknown sandbox permission option: {option!r}")
        bash = self._toolset.get_tool("Bash")
        if bash is None:
            raise RuntimeError("Bash tool is unavailable for sandbox permission handling")
        self._pending = None
        if option == "deny":
            return f"User denied access to {pending.resource}"
        if option == "allow_once":
            run = await bash.execute_unsandboxed(pending.command, self.cwd)
            text = run.stdout if present(run.stdout) else ""
            if present(run.stderr):
                text += ("\n\n" if text else "") + f"[stderr]\n{run.stderr}"
            return text or f"(Command exited with code {run.exit_code})"
        resource = pending.resource
        directory = resource if not resource or resource.endswith("/") else posixpath.dirname(resource) or "."
        if option == "allow_session":
            await bash.allow_session(directory, self.cwd)
        else:
            await bash.allow_permanent(directory, self.cwd)
        retried = await bash.call({"command": pending.command})
        return "\n\n".join(p for p in (retried.output, retried.message) if present(p)) or (
            "(Command executed successfully with no output)"
        )


class Mutant(Baseline):
    name = "semantic-sh_sandbox_answer_blank_dropped"
    loop = BlankAnswers


implementation = Mutant
