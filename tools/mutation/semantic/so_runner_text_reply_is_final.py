"""A reply with text is taken as the answer, its tool calls left unrun: the port ends the loop on
``if (text) return text`` (the shape of a chat loop that has no tools) before it looks at the calls,
where the original ends it only on a reply without tool calls.  A model that announces what it is about
to do ("I'll look at the build log first.") and calls a tool in the same reply gets its announcement
returned as the answer, and the work is never done.

Pattern: an input carrying two things (a reply with text and tool calls); every example tool-call reply
has no text.
"""

from __future__ import annotations

from typing import Any

from tools.mutation.semantic._baseline_loop import Baseline
from tools.mutation.semantic._runner import text_of
from tools.mutation.semantic._support import Delegate, replace_record

AREAS = ("agent", "repl")
PATTERN = "two things in one reply (text and tool calls)"
BASELINE = "_baseline_loop"


class TextEndsTheLoop(Delegate):
    """The model as the port's loop reads it: a reply with text has no tool calls left."""

    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        reply = await self._inner.generate(*args, **kwargs)
        message = reply.message
        if not message.get("toolCalls") or not text_of(message):
            return reply
        kept = {key: value for key, value in message.items() if key != "toolCalls"}
        return replace_record(reply, message=kept)


class Mutant(Baseline):
    name = "semantic-so_runner_text_reply_is_final"

    def agent_runner(self, llm: Any, toolset: Any, **options: Any) -> Any:
        return self.loop(self, TextEndsTheLoop(llm), toolset, **options)


implementation = Mutant
