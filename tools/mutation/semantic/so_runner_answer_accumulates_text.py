"""The request's answer is every text the model wrote during it, not its last reply: the port collects
the text parts of each reply as they stream in (the REPL shows them as they come) and returns what it
collected, where the original answers with the text of the reply that ended the loop
(``extractText(result.message)``).  A model that says "I'll look at the build log first." before its
tool call gets that sentence glued in front of its answer, and the stop hooks see it as part of the
final response.

Pattern: an input carrying two things (a reply with text and tool calls); every example tool-call reply
has no text.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import AgentLoop, Message, PermissionRequest, text_of

AREAS = ("agent", "repl")
PATTERN = "two things in one reply (text and tool calls)"
BASELINE = "_baseline_loop"


class AccumulatedText(AgentLoop):
    _mut_said: list[str] | None = None

    def _append(self, messages: list[Message]) -> None:
        if self._mut_said is not None:
            self._mut_said.extend(text_of(m) for m in messages if m.get("role") == "assistant")
        super()._append(messages)

    async def _loop(self, user_message: str, signal: Any) -> tuple[str, bool, PermissionRequest | None]:
        self._mut_said = []
        try:
            response, normal, permission = await super()._loop(user_message, signal)
            said = self._mut_said
        finally:
            self._mut_said = None
        return ("".join(said) if normal else response), normal, permission


class Mutant(Baseline):
    name = "semantic-so_runner_answer_accumulates_text"
    loop = AccumulatedText


implementation = Mutant
